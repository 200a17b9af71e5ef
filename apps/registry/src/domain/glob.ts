/**
 * Globs of a rule's `applies_to` (docs/verdicts.md): `*` matches any run of characters
 * (dots and slashes included), `?` exactly one; everything else is literal and case-sensitive,
 * and the whole value must match. The verdict gateway must use the same semantics.
 */
const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (re) return re;
  let source = '^';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  re = new RegExp(`${source}$`, 'su');
  if (cache.size > 10_000) cache.clear();
  cache.set(glob, re);
  return re;
}

export function globMatches(glob: string, value: string): boolean {
  return globToRegExp(glob).test(value);
}

/** An absent list matches everything (docs/verdicts.md: absent = all). */
export function anyGlobMatches(globs: readonly string[] | undefined, value: string): boolean {
  if (!globs) return true;
  return globs.some((g) => globMatches(g, value));
}
