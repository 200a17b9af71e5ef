// The checks on the raw text of a JSON input (docs/development.md "Storable JSON"): bytes that are not
// UTF-8, and numbers that a JSON number read into a double would change. Both are gone once the text
// is decoded or parsed (U+FFFD in place of the bytes, the nearest double in place of the number), so
// they are found here, before. Pure functions, no I/O.
import type { JsonPath, Unstorable } from './storable';

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode 15, table
 * 3-7: no overlong form, no surrogate, nothing past U+10FFFF), or -1 when all of them do. Only the
 * failure path runs it: the readers test with node's native isUtf8 first.
 */
export function invalidUtf8Offset(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes that follow, and the range of the first of them.
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (need === 0) return i;
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (i + need >= b.length) return i; // cut short
    if (b[i + 1] < lo || b[i + 1] > hi) return i;
    for (let k = 2; k <= need; k++) if (b[i + k] < 0x80 || b[i + k] > 0xbf) return i;
    i += need + 1;
  }
  return -1;
}

/** Where a scan of JSON text stopped: the path of the value it was in, and whether in a member name. */
export interface TextPosition {
  path: JsonPath;
  inName: boolean;
}

interface Frame {
  array: boolean;
  /** Objects: the current member's name (null before the first); arrays: unused. */
  key: string | null;
  index: number;
  expectKey: boolean;
  /** Objects, when the scan looks for repeated names: the names read so far. */
  names: Set<string> | null;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Scans JSON text (whole, or a prefix of it) keeping the path of the value being read, calling
 * `onNumber` with each number's literal; `onNumber` returning true stops the scan there. With
 * `onRepeatedName`, a member name an object already has calls it, and its returning true stops the scan
 * there (the path then ends with that name). Answers the position where the scan stopped: at that number
 * or name, inside an unterminated string (a prefix ends there), or at the end. Text that is not JSON gives
 * an answer of no meaning, never an exception.
 */
export function scanJsonText(
  text: string,
  onNumber?: (literal: string) => boolean,
  onRepeatedName?: (name: string) => boolean,
): TextPosition {
  const stack: Frame[] = [];
  const pathHere = (): JsonPath => stack.map((f) => (f.array ? f.index : (f.key ?? '')));
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({
        array: c === 0x5b,
        key: null,
        index: 0,
        expectKey: c === 0x7b,
        names: c === 0x7b && onRepeatedName ? new Set() : null,
      });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === 0x3a /* : */) {
      if (top) top.expectKey = false;
      i++;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const isKey = top !== undefined && !top.array && top.expectKey;
      if (end < 0) return isKey ? { path: pathHere().slice(0, -1), inName: true } : { path: pathHere(), inName: false };
      if (isKey) {
        top.key = memberName(text.slice(i, end));
        if (top.names !== null) {
          if (top.names.has(top.key) && onRepeatedName?.(top.key)) return { path: pathHere(), inName: true };
          top.names.add(top.key);
        }
      }
      i = end;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) {
        i++;
        continue;
      }
      if (onNumber?.(m[0])) return { path: pathHere(), inName: false };
      i += m[0].length;
    } else {
      i++;
    }
  }
  return { path: pathHere(), inName: false };
}

/** The index after the closing quote of the string starting at `start`, or -1 when it is not closed. */
function stringEnd(text: string, start: number): number {
  let j = start + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > start && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function memberName(quoted: string): string {
  if (!quoted.includes('\\')) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * Whether a JSON number, read into a double as every JSON parser here reads it, no longer is the
 * number that was written (docs/development.md "Storable JSON"): its double, written back as
 * JSON.stringify and RFC 8785 (section 3.2.2.3) write it, is another decimal number. That is an
 * integer the double cannot hold (9007199254740993 reads as ...992; 123456789012345678901234567890
 * as 1.2345678901234568e+29), more significant digits than a double holds (0.10000000000000000001),
 * or a number beyond its range (1e400 reads as Infinity, 1e-400 as 0). `1.0`, `1e2`, `-0`, `0.1` and
 * `9007199254740992` keep their value (written back `1`, `100`, `0`, `0.1`, `9007199254740992`). So
 * the accepted numbers are closed under RFC 8785: what is accepted in one spelling is accepted in the
 * canonical one that a service writes when it passes the value on (1e16 is written 10000000000000000).
 */
export function isInexactNumber(literal: string): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value)) return true;
  return decimal(literal) !== decimal(String(value));
}
const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A number's decimal value in one spelling: `[-]<digits without leading or trailing zeros>e<exponent>`, or `0`. */
function decimal(s: string): string {
  const m = DECIMAL.exec(s);
  if (!m) return s;
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  let digits = whole + fraction;
  let exp = Number(exponent) + whole.length; // value = 0.<digits> x 10^exp
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === 0x30) lead++;
  digits = digits.slice(lead);
  exp -= lead;
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 0x30) end--;
  digits = digits.slice(0, end);
  return digits ? `${sign}${digits}e${exp}` : '0';
}

/**
 * A number can lose its value only with 16 or more significant digits (up to 15, a double holds every
 * decimal: DBL_DIG), so a run of 16 digits and dots that starts with a digit, or with a three-digit
 * exponent (out of range, or subnormal). This native test passes almost every text at once; a hit
 * (possibly inside a string) pays for the exact scan.
 */
const MAY_HOLD_INEXACT = /\d[\d.]{15}|[eE][+-]?\d{3}/;

/** The first number of a JSON text that would not be stored as written (isInexactNumber), with its path; or null. */
export function findInexactNumber(text: string): Unstorable | null {
  if (!MAY_HOLD_INEXACT.test(text)) return null;
  let literal: string | undefined;
  const at = scanJsonText(text, (l) => {
    if (!isInexactNumber(l)) return false;
    literal = l;
    return true;
  });
  return literal === undefined ? null : { path: at.path, reason: 'inexact_number', inName: false, literal };
}

/**
 * The path of the first member whose name its object already has (`{"verdict":"allowed","verdict":"blocked"}`),
 * or null. JSON.parse keeps the last of them and many readers the first, so a text that repeats a name reads two
 * ways (RFC 8259 section 4: names SHOULD be unique); a verifier refuses it rather than pick one.
 */
export function findRepeatedMemberName(text: string): JsonPath | null {
  let repeated = false;
  const at = scanJsonText(text, undefined, () => (repeated = true));
  return repeated ? at.path : null;
}

/**
 * How many member names a JSON text holds: its colons outside strings (in JSON a colon follows a member name and
 * nothing else). Compared with the members of the parsed value, it finds a repeated name (JSON.parse keeps the last
 * of equal names, dropping one) for the cost of one pass; findRepeatedMemberName then says where.
 */
export function countMemberNames(text: string): number {
  let n = 0;
  let i = 0;
  const len = text.length;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return n;
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c /* \ */) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === 0x3a /* : */) n++;
    i++;
  }
  return n;
}

/** The repeated member name of a JSON text as an Unstorable (its path ends with the name), or null. */
export function findRepeatedName(text: string): Unstorable | null {
  const path = findRepeatedMemberName(text);
  return path === null ? null : { path, reason: 'repeated_name', inName: true };
}

/** Where in the JSON text of `bytes` the first byte that is not UTF-8 is; null when they are UTF-8. */
export function findInvalidUtf8(bytes: Buffer): Unstorable | null {
  const offset = invalidUtf8Offset(bytes);
  if (offset < 0) return null;
  const at = scanJsonText(bytes.subarray(0, offset).toString('utf8'));
  return { path: at.path, reason: 'invalid_utf8', inName: at.inName };
}
