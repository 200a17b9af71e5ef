// Globs of a rule's applies_to (docs/verdicts.md). Syntax, chosen to be small and unsurprising for
// dotted action names (`payments.transfer`) and free-form resource ids (`acct:eu/123`):
//   `*`  any run of characters, possibly empty, dots and slashes included (`payments.*` matches
//        `payments.transfer.intl`);
//   `?`  exactly one character (one Unicode code point);
//   anything else matches itself, case-sensitively; the whole string must match. No escapes, no classes.

export type StringMatcher = (s: string) => boolean;

const WILDCARD = /[*?]/;
const REGEXP_SYNTAX = /[.*+?^${}()|[\]\\/]/g;

export function hasWildcard(glob: string): boolean {
  return WILDCARD.test(glob);
}

/** The characters before the first wildcard: every string the glob matches starts with them. */
export function literalPrefix(glob: string): string {
  const i = glob.search(WILDCARD);
  return i < 0 ? glob : glob.slice(0, i);
}

const matchAll: StringMatcher = () => true;

/** Compiles a glob once; the common shapes avoid a RegExp. */
export function compileGlob(rawGlob: string): StringMatcher {
  // Runs of `*` mean the same as one and would only make the RegExp backtrack more.
  const glob = rawGlob.replace(/\*{2,}/g, '*');
  if (glob === '*') return matchAll;
  if (!hasWildcard(glob)) return (s) => s === glob;
  const first = glob.search(WILDCARD);
  if (first === glob.length - 1 && glob.endsWith('*')) {
    const prefix = glob.slice(0, -1);
    return (s) => s.startsWith(prefix);
  }
  if (first === 0 && glob.startsWith('*') && !hasWildcard(glob.slice(1))) {
    const suffix = glob.slice(1);
    return (s) => s.endsWith(suffix);
  }
  let source = '^';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(REGEXP_SYNTAX, '\\$&');
  }
  const re = new RegExp(`${source}$`, 'su');
  return (s) => re.test(s);
}

/** A matcher for a list of globs (any one matching); absent or empty = everything. */
export function compileGlobList(globs: readonly string[] | null | undefined): StringMatcher | null {
  if (!globs || globs.length === 0) return null;
  const matchers = globs.map(compileGlob);
  if (matchers.includes(matchAll)) return null;
  if (matchers.length === 1) return matchers[0];
  return (s) => {
    for (const m of matchers) if (m(s)) return true;
    return false;
  };
}
