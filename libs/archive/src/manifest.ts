import type { ArchiveKind, SegmentDigest, SegmentManifest } from './segment';
import { ARCHIVE_KINDS } from './segment';

/** The manifest of a written segment (docs/operations.md "Archive"); bounds as ISO 8601. */
export function manifestOf(
  s: { tenant_id: string; kind: ArchiveKind; from: Date | string; to: Date | string },
  d: SegmentDigest & { index_sha256?: string },
): SegmentManifest {
  return {
    tenant_id: s.tenant_id,
    kind: s.kind,
    from: new Date(s.from).toISOString(),
    to: new Date(s.to).toISOString(),
    count: d.count,
    sha256: d.sha256,
    first_id: d.first_id,
    last_id: d.last_id,
    ...(d.index_sha256 === undefined ? {} : { index_sha256: d.index_sha256 }),
  };
}

/** Reads a manifest (stored or sealed), refusing anything that is not one. */
export function parseManifest(v: unknown): SegmentManifest {
  const m = v as Record<string, unknown>;
  const idOrNull = (x: unknown) => x === null || typeof x === 'string';
  const ok =
    typeof m === 'object' &&
    m !== null &&
    typeof m.tenant_id === 'string' &&
    ARCHIVE_KINDS.includes(m.kind as ArchiveKind) &&
    typeof m.from === 'string' &&
    typeof m.to === 'string' &&
    Number.isSafeInteger(m.count) &&
    (m.count as number) >= 0 &&
    typeof m.sha256 === 'string' &&
    /^sha256:[0-9a-f]{64}$/.test(m.sha256) &&
    idOrNull(m.first_id) &&
    idOrNull(m.last_id) &&
    (m.index_sha256 === undefined || (typeof m.index_sha256 === 'string' && /^sha256:[0-9a-f]{64}$/.test(m.index_sha256)));
  if (!ok) throw new Error('archive: not a segment manifest');
  const { tenant_id, kind, from, to, count, sha256, first_id, last_id, index_sha256 } = m as unknown as SegmentManifest;
  return { tenant_id, kind, from, to, count, sha256, first_id, last_id, ...(index_sha256 === undefined ? {} : { index_sha256 }) };
}

/** Whether a segment as read back is the one its manifest describes; answers the first difference, or null. */
export function manifestMismatch(m: SegmentManifest, d: SegmentDigest): string | null {
  if (d.sha256 !== m.sha256) return `sha256 ${d.sha256} is not the manifest's ${m.sha256}`;
  if (d.count !== m.count) return `${d.count} lines, the manifest says ${m.count}`;
  if (d.first_id !== m.first_id || d.last_id !== m.last_id)
    return `ids ${d.first_id}..${d.last_id}, the manifest says ${m.first_id}..${m.last_id}`;
  return null;
}
