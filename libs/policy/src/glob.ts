// Globs of a rule's applies_to (docs/verdicts.md "Globs"). Syntax, chosen to be small and unsurprising for
// dotted action names (`payments.transfer`) and free-form resource ids (`acct:eu/123`):
//   `*`  any run of characters, possibly empty, dots and slashes included (`payments.*` matches
//        `payments.transfer.intl`);
//   `?`  exactly one character (one Unicode code point);
//   anything else matches itself, case-sensitively; the whole string must match. No escapes, no classes.
//
// Matching takes time linear in the string, whatever the glob (ADR 0015): the glob is cut at its `*`s
// into pieces; the first piece is anchored at the start, the last at the end, and each piece between
// is placed at its leftmost occurrence after the previous one. Leftmost is always right for pieces of
// fixed length (an earlier end leaves more room for what follows), so no placement is ever retried:
// each search starts where the previous piece ended. A piece without `?` is found with indexOf; one
// with `?` by a bit-parallel scan (Shift-And: one pass over the string, one machine word per 32
// characters of the piece). A RegExp is never built from a glob: `*a*a*b` once backtracked for seconds.

export type StringMatcher = (s: string) => boolean;

const STAR = 42; // '*'
const QUESTION = 63; // '?'

export function hasWildcard(glob: string): boolean {
  return glob.includes('*') || glob.includes('?');
}

/** Index of the first `*` or `?`, or -1. */
function firstWildcard(glob: string): number {
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charCodeAt(i);
    if (c === STAR || c === QUESTION) return i;
  }
  return -1;
}

/** The characters before the first wildcard: every string the glob matches starts with them. */
export function literalPrefix(glob: string): string {
  const i = firstWildcard(glob);
  return i < 0 ? glob : glob.slice(0, i);
}

/** Runs of `*` mean the same as one. */
export function collapseStars(glob: string): string {
  if (!glob.includes('**')) return glob;
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.charCodeAt(i) === STAR && out.charCodeAt(out.length - 1) === STAR) continue;
    out += glob[i];
  }
  return out;
}

/** Whether a string holds no lone surrogate (half of a UTF-16 pair). */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false; // a low surrogate without its high half
    const next = s.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

const matchAll: StringMatcher = () => true;

/** The code point at `i` and its width in UTF-16 units, as a RegExp with the `u` flag reads them. */
function widthAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 2;
  }
  return 1;
}

/** A piece of a glob between two `*`: placed at a given start, at a given end, or searched for. */
interface Piece {
  /** End of the piece when it starts at `from`, or -1. */
  matchAt(s: string, from: number): number;
  /** Start of the piece when it ends at `end`, or -1. */
  matchEndingAt(s: string, end: number): number;
  /** End of its leftmost occurrence starting at or after `from` and ending at or before `limit`, or -1. */
  find(s: string, from: number, limit: number): number;
}

/** A piece without `?`, well formed (so its matches start and end on code point boundaries). */
function literalPiece(lit: string): Piece {
  const n = lit.length;
  return {
    matchAt: (s, from) => (s.startsWith(lit, from) ? from + n : -1),
    matchEndingAt: (s, end) => (end >= n && s.endsWith(lit, end) ? end - n : -1),
    find: (s, from, limit) => {
      const i = s.indexOf(lit, from);
      return i < 0 || i + n > limit ? -1 : i + n;
    },
  };
}

/**
 * A piece holding `?` (or a lone surrogate), compared code point by code point. `tokens` are its code
 * points, -1 for `?`. find() is Shift-And: bit k of the state says that the piece's first k+1 tokens
 * end at the current position; each code point of the string updates every word once.
 */
function patternPiece(text: string): Piece {
  const tokens: number[] = [];
  for (let i = 0; i < text.length;) {
    const w = widthAt(text, i);
    tokens.push(text.charCodeAt(i) === QUESTION ? -1 : text.codePointAt(i)!);
    i += w;
  }
  const m = tokens.length;
  const words = Math.ceil(m / 32);
  const anyMask = new Uint32Array(words);
  for (let k = 0; k < m; k++) if (tokens[k] === -1) anyMask[k >> 5] |= 1 << (k & 31);
  // One mask per code point the piece names (memory grows with the piece, not with the alphabet); any
  // other code point matches only the piece's `?` positions (anyMask).
  const masks = new Map<number, Uint32Array>();
  for (let k = 0; k < m; k++) {
    const cp = tokens[k];
    if (cp < 0) continue;
    let mask = masks.get(cp);
    if (!mask) masks.set(cp, (mask = Uint32Array.from(anyMask)));
    mask[k >> 5] |= 1 << (k & 31);
  }
  const state = new Uint32Array(words); // reused: matching is synchronous and never re-entrant
  const lastWord = words - 1;
  const lastBit = (1 << ((m - 1) & 31)) >>> 0;

  return {
    matchAt(s, from) {
      let i = from;
      for (let k = 0; k < m; k++) {
        if (i >= s.length) return -1;
        const cp = s.codePointAt(i)!;
        if (tokens[k] !== -1 && tokens[k] !== cp) return -1;
        i += cp > 0xffff ? 2 : 1;
      }
      return i;
    },
    matchEndingAt(s, end) {
      let j = end;
      for (let k = m - 1; k >= 0; k--) {
        if (j <= 0) return -1;
        const low = s.charCodeAt(j - 1);
        const pair = low >= 0xdc00 && low <= 0xdfff && j >= 2 && s.charCodeAt(j - 2) >= 0xd800 && s.charCodeAt(j - 2) <= 0xdbff;
        const w = pair ? 2 : 1;
        if (tokens[k] !== -1 && tokens[k] !== s.codePointAt(j - w)) return -1;
        j -= w;
      }
      return j;
    },
    find(s, from, limit) {
      state.fill(0);
      let i = from;
      while (i < limit) {
        const cp = s.codePointAt(i)!;
        i += cp > 0xffff ? 2 : 1;
        const mask = masks.get(cp) ?? anyMask;
        let carry = 1; // a new occurrence may start at every position
        for (let w = 0; w < words; w++) {
          const d = state[w];
          state[w] = ((d << 1) | carry) & mask[w];
          carry = d >>> 31;
        }
        if (state[lastWord] & lastBit) return i;
      }
      return -1;
    },
  };
}

function piece(text: string): Piece {
  return text.includes('?') || !isWellFormed(text) ? patternPiece(text) : literalPiece(text);
}

/** Compiles a glob once into a matcher that runs in time linear in the string (see the header). */
export function compileGlob(rawGlob: string): StringMatcher {
  const glob = collapseStars(rawGlob);
  if (glob === '*') return matchAll;
  const plain = isWellFormed(glob);
  if (plain && !hasWildcard(glob)) return (s) => s === glob;
  const first = firstWildcard(glob);
  if (plain && first === glob.length - 1 && glob.charCodeAt(first) === STAR) {
    const prefix = glob.slice(0, -1);
    return (s) => s.startsWith(prefix);
  }
  if (plain && first === 0 && glob.charCodeAt(0) === STAR && !hasWildcard(glob.slice(1))) {
    const suffix = glob.slice(1);
    return (s) => s.endsWith(suffix);
  }

  const parts = glob.split('*');
  if (parts.length === 1) {
    // No `*`: the one piece must cover the whole string.
    const whole = piece(glob);
    return (s) => whole.matchAt(s, 0) === s.length;
  }
  const head = parts[0] === '' ? null : piece(parts[0]);
  const tailText = parts[parts.length - 1];
  const tail = tailText === '' ? null : piece(tailText);
  const middle = parts.slice(1, -1).map(piece); // never empty strings: runs of `*` are collapsed
  return (s) => {
    let pos = 0;
    if (head !== null) {
      pos = head.matchAt(s, 0);
      if (pos < 0) return false;
    }
    let limit = s.length;
    if (tail !== null) {
      limit = tail.matchEndingAt(s, s.length);
      if (limit < pos) return false;
    }
    for (let k = 0; k < middle.length; k++) {
      pos = middle[k].find(s, pos, limit);
      if (pos < 0) return false;
    }
    return true;
  };
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
