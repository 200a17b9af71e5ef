// What a JSON value must not hold to be stored exactly (docs/development.md "Storable JSON"): the
// checks on parsed values. The checks on the raw text (invalid UTF-8, numbers) are in json-text.ts;
// body.ts puts both together. Pure functions, no I/O.

/** Why a JSON input cannot be stored as it was sent. */
export type UnstorableReason =
  'nul' | 'lone_surrogate' | 'invalid_utf8' | 'inexact_number' | 'too_deep' | 'repeated_name' | 'prototype_name';

/**
 * The member name JavaScript takes for an object's prototype when it is assigned: JSON.parse keeps such a member,
 * but every copy of the object made by assignment (Prisma's JSON columns, a map built member by member, a reader
 * that rebuilds what it parsed) loses it, or inherits its value. So what was stored, hashed or evaluated would not be
 * what was sent.
 */
export const PROTOTYPE_NAME = '__proto__';

/** Member names and array positions from the root of the value to the offending one. */
export type JsonPath = Array<string | number>;

/** What cannot be stored, and where. */
export interface Unstorable {
  /** The path of the value (or of the member whose name is at fault; for invalid UTF-8 in a name, of its object). */
  path: JsonPath;
  reason: UnstorableReason;
  /** A member name, not a value, holds it. */
  inName: boolean;
  /** inexact_number: the number as it was written. */
  literal?: string;
}

/**
 * Levels of objects and arrays a request body may have (the body itself is level 1). PostgreSQL's
 * JSON parser, JSON.stringify, Prisma's serialiser and the request validators all recurse; no field
 * of any of the three APIs needs more.
 */
export const MAX_JSON_DEPTH = 64;

// Any NUL or any surrogate code unit: one native scan that almost every string passes; only a hit
// pays for the exact test (a surrogate pair, an emoji, is well-formed).
const SUSPECT = /[\u0000\ud800-\udfff]/;

/**
 * Why a string cannot be stored, or null: U+0000, which no PostgreSQL `text` or `jsonb` value may
 * hold, or a lone UTF-16 surrogate, which has no UTF-8 form (RFC 3629 section 3) nor RFC 8785 form
 * (section 3.2.2.2): the driver would write U+FFFD in its place.
 */
export function stringProblem(s: string): 'nul' | 'lone_surrogate' | null {
  if (!SUSPECT.test(s)) return null;
  if (s.includes('\u0000')) return 'nul';
  return s.isWellFormed() ? null : 'lone_surrogate';
}

/**
 * What a walk of a parsed value found: the first string that cannot be stored, the first container past the depth,
 * the first member named `__proto__` (PROTOTYPE_NAME).
 */
export interface Inspection {
  string: Unstorable | null;
  depth: Unstorable | null;
  prototype: Unstorable | null;
  /** The member names of every object walked (all of them unless the walk stopped at `depth`). */
  members: number;
}

/**
 * Walks a parsed JSON value in document order with its own stack (no recursion, so no nesting is
 * too deep to be walked), and answers the first key or string value that cannot be stored and the
 * first object or array past `maxDepth` levels (the root is level 1). It stops at the latter; the
 * path is built only for a hit. `problemOf` judges strings (stringProblem unless told).
 */
export function inspectJson(
  root: unknown,
  maxDepth = MAX_JSON_DEPTH,
  problemOf: (s: string) => Unstorable['reason'] | null = stringProblem,
): Inspection {
  const found: Inspection = { string: null, depth: null, prototype: null, members: 0 };
  if (typeof root === 'string') {
    const reason = problemOf(root);
    if (reason) found.string = { path: [], reason, inName: false };
    return found;
  }
  if (root === null || typeof root !== 'object') return found;
  // One frame per open object or array, from the root down: the frames are the path. Pre-order, so
  // "first" is first in the text.
  const frames: Frame[] = [frame(root)];
  if (frames[0].keys) found.members += frames[0].count;
  while (frames.length) {
    const f = frames[frames.length - 1];
    if (f.i >= f.count) {
      frames.pop();
      continue;
    }
    const i = f.i++;
    let v: unknown;
    if (f.keys) {
      const key = f.keys[i];
      if (found.string === null) {
        const reason = problemOf(key);
        if (reason) found.string = { path: pathOf(frames), reason, inName: true };
      }
      if (key === PROTOTYPE_NAME && found.prototype === null)
        found.prototype = { path: pathOf(frames), reason: 'prototype_name', inName: true };
      v = (f.node as Record<string, unknown>)[key];
    } else {
      v = (f.node as unknown[])[i];
    }
    if (typeof v === 'string') {
      if (found.string === null) {
        const reason = problemOf(v);
        if (reason) found.string = { path: pathOf(frames), reason, inName: false };
      }
    } else if (v !== null && typeof v === 'object') {
      if (frames.length >= maxDepth) {
        found.depth = { path: pathOf(frames), reason: 'too_deep', inName: false };
        return found;
      }
      const next = frame(v);
      if (next.keys) found.members += next.count;
      frames.push(next);
    }
  }
  return found;
}

interface Frame {
  node: object;
  /** An object's member names; null for an array. */
  keys: string[] | null;
  count: number;
  /** The next member to look at. */
  i: number;
}

/** The path to the member each open frame is at (the one just taken: `i - 1`). */
function pathOf(frames: Frame[]): JsonPath {
  return frames.map((f) => (f.keys ? f.keys[f.i - 1] : f.i - 1));
}

function frame(node: object): Frame {
  if (Array.isArray(node)) return { node, keys: null, count: node.length, i: 0 };
  const keys = Object.keys(node);
  return { node, keys, count: keys.length, i: 0 };
}

/** The first string (a key or a value, at any depth) that cannot be stored, or null. */
export function findUnstorableString(value: unknown): Unstorable | null {
  return inspectJson(value, Infinity).string;
}

/** The words after the field's name in an error message, e.g. `contains U+0000 (NUL), which cannot be stored`. */
export function reasonText(u: Unstorable, maxDepth = MAX_JSON_DEPTH): string {
  switch (u.reason) {
    case 'nul':
      return 'contains U+0000 (NUL), which cannot be stored';
    case 'lone_surrogate':
      return 'contains a lone UTF-16 surrogate, which cannot be stored';
    case 'invalid_utf8':
      return 'contains bytes that are not UTF-8, which cannot be stored';
    case 'inexact_number':
      // Where, never what: the number may be a sensitive value (docs/verdicts.md "Sensitive fields").
      return 'holds a number which a JSON number read as a double cannot carry exactly (more significant digits than a double holds, or beyond its range)';
    case 'too_deep':
      return `is nested more than ${maxDepth} levels deep`;
    case 'repeated_name':
      return 'is repeated in its object: JSON readers disagree on which of two equal names counts';
    case 'prototype_name':
      return 'is __proto__, which JavaScript readers take for the prototype of its object: a copy would lose the member or inherit its value';
  }
}

/**
 * A whole sentence naming `field` (the path as the service writes it): `actor contains U+0000 (NUL),
 * which cannot be stored`, `The member name "a.\u0000" contains …`. A field holding control or
 * surrogate characters is shown JSON-escaped, so the sentence is printable and well-formed.
 */
export function describeUnstorable(u: Unstorable, field: string, maxDepth = MAX_JSON_DEPTH): string {
  const shown = printable(field);
  if (u.inName && u.reason === 'invalid_utf8') return `A member name in ${shown} ${reasonText(u, maxDepth)}`;
  return u.inName ? `The member name ${shown} ${reasonText(u, maxDepth)}` : `${shown} ${reasonText(u, maxDepth)}`;
}

/** `field` as it may appear in a message: JSON-escaped when it holds control or surrogate characters. */
export function printable(field: string): string {
  return /[\u0000-\u001f\ud800-\udfff]/.test(field) ? JSON.stringify(field) : field;
}

/**
 * `s` with every lone surrogate written as the six characters `\udXXX`: text a strict JSON parser
 * reads (JSON.stringify writes a lone surrogate as the escape `\ud800`, which strict parsers refuse).
 */
export function escapeLoneSurrogates(s: string): string {
  if (s.isWellFormed()) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
        continue;
      }
    }
    out += c >= 0xd800 && c <= 0xdfff ? `\\u${c.toString(16)}` : s[i];
  }
  return out;
}

/**
 * A JSON value (an error body) with every lone surrogate in its strings and member names escaped as
 * text (escapeLoneSurrogates), so what is echoed back is valid strict JSON. Error bodies are small
 * and shallow: a bounded recursion copies them.
 */
export function wellFormedJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return escapeLoneSurrogates(value) as T;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => wellFormedJson(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[escapeLoneSurrogates(k)] = wellFormedJson(v, depth + 1);
  return out as T;
}
