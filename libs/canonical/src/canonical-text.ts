import type { CanonicalText } from './canonical-json';

/**
 * Whether `text` is already RFC 8785 text, i.e. exactly what canonicalJson(JSON.parse(text)) would
 * write: no whitespace, members in strictly increasing order of the UTF-16 code units of their names
 * (section 3.2.3; a repeated name fails too), strings escaped as section 3.2.2.2 escapes them (only
 * `"` and `\`, and U+0000-U+001F as \b \t \n \f \r or \u00xx in lower case; no lone surrogate), numbers
 * in the ECMAScript Number-to-String form (section 3.2.2.3: `1`, not `1.0`, `1e+21`, not `1E21`).
 *
 * One scan of the text, building nothing: a reader of stored canonical text (the ledger's chain
 * verification) hashes such text as it is and re-canonicalises only the text that fails here, with
 * the same result as re-canonicalising everything. `false` says only "not known to be canonical".
 * canonical-text.spec.ts checks it against canonicalJson on random JSON.
 */
export function isCanonicalText(text: string): text is CanonicalText {
  const end = value(text, 0, 0);
  return end === text.length;
}

/** Nesting beyond which the scan gives up (the caller then re-canonicalises, which handles any depth). */
const MAX_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index after the JSON value starting at `i`, or -1 when it is not canonical text. */
function value(t: string, i: number, depth: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return string(t, i);
  if (c === 0x7b /* { */) return object(t, i, depth + 1);
  if (c === 0x5b /* [ */) return array(t, i, depth + 1);
  if (c === 0x74 /* t */) return t.startsWith('true', i) ? i + 4 : -1;
  if (c === 0x66 /* f */) return t.startsWith('false', i) ? i + 5 : -1;
  if (c === 0x6e /* n */) return t.startsWith('null', i) ? i + 4 : -1;
  return number(t, i);
}

function object(t: string, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  i += 1;
  if (t.charCodeAt(i) === 0x7d /* } */) return i + 1;
  let previous: string | null = null;
  for (;;) {
    const start = i;
    i = string(t, i);
    if (i < 0) return -1;
    // Names compare as JavaScript strings do (UTF-16 code units), decoded when they hold an escape.
    const raw = t.slice(start + 1, i - 1);
    const name = raw.includes('\\') ? (JSON.parse(t.slice(start, i)) as string) : raw;
    if (previous !== null && !(previous < name)) return -1;
    previous = name;
    if (t.charCodeAt(i) !== 0x3a /* : */) return -1;
    i = value(t, i + 1, depth);
    if (i < 0) return -1;
    const c = t.charCodeAt(i);
    if (c === 0x7d /* } */) return i + 1;
    if (c !== 0x2c /* , */) return -1;
    i += 1;
  }
}

function array(t: string, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  i += 1;
  if (t.charCodeAt(i) === 0x5d /* ] */) return i + 1;
  for (;;) {
    i = value(t, i, depth);
    if (i < 0) return -1;
    const c = t.charCodeAt(i);
    if (c === 0x5d /* ] */) return i + 1;
    if (c !== 0x2c /* , */) return -1;
    i += 1;
  }
}

/** The short escapes of section 3.2.2.2, by the character after the backslash. */
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 0x62 /* b */, 0x74 /* t */, 0x6e /* n */, 0x66 /* f */, 0x72 /* r */]);
/** Control characters that have a short escape, so never \u00xx: \b \t \n \f \r. */
const SHORT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
const LOWER_HEX = /^[0-9a-f]{2}$/;

function string(t: string, i: number): number {
  if (t.charCodeAt(i) !== QUOTE) return -1;
  for (i += 1; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = t.charCodeAt(i + 1);
      if (SHORT_ESCAPES.has(e)) {
        i += 1;
        continue;
      }
      // \u00xx for the other control characters only, in lower-case hex.
      if (e !== 0x75 /* u */ || t.charCodeAt(i + 2) !== 0x30 || t.charCodeAt(i + 3) !== 0x30) return -1;
      const hex = t.slice(i + 4, i + 6);
      if (!LOWER_HEX.test(hex) || parseInt(hex, 16) >= 0x20 || SHORT_CONTROLS.has(parseInt(hex, 16))) return -1;
      i += 5;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair, high then low; a lone surrogate has no canonical form.
      const low = t.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return -1;
      i += 1;
    }
  }
  return -1;
}

/** JSON's number grammar (RFC 8259 section 6). */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function number(t: string, i: number): number {
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(t);
  if (m === null || m[0].length === 0) return -1;
  // Section 3.2.2.3: the text ECMAScript writes for the number it denotes (so no -0, 1.0, 1E2, 1e+2).
  return String(Number(m[0])) === m[0] ? i + m[0].length : -1;
}
