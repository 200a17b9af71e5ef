const SEGMENT = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** docs/registry.md "Limits": a root plus at most two levels below it. */
export const MAX_NAMESPACE_SEGMENTS = 3;

export type ParsedPath = { ok: true; segments: string[]; parent: string | null } | { ok: false; problem: string };

/** Parses `root/child/grandchild`; deeper paths and bad segments are refused. */
export function parseNamespacePath(path: string): ParsedPath {
  const segments = path.split('/');
  if (segments.length > MAX_NAMESPACE_SEGMENTS) {
    return { ok: false, problem: `namespace ${path} is too deep: a root plus at most ${MAX_NAMESPACE_SEGMENTS - 1} levels below it` };
  }
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined) {
    return {
      ok: false,
      problem: `namespace segment ${JSON.stringify(bad)} must be lowercase letters, digits, _ and -, up to 63 characters`,
    };
  }
  return { ok: true, segments, parent: segments.length > 1 ? segments.slice(0, -1).join('/') : null };
}
