import { CanonicalizationError } from './errors';

/** A value of the JSON data model (RFC 8259) that RFC 8785 can serialise. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

declare const canonicalBrand: unique symbol;

/**
 * RFC 8785 text written by canonicalJson. Only this library mints it: a function that splices text
 * into a hashed preimage (verbatim(), the `known` map) takes a CanonicalText, so a string built by
 * hand, or read from storage and not re-canonicalised, does not type-check there.
 */
export type CanonicalText = string & { readonly [canonicalBrand]: true };

/** Objects inside a value whose canonical text was already written, by identity (see canonicalJson). */
export type KnownTexts = ReadonlyMap<object, CanonicalText>;

/** Canonical text standing for a JSON value inside a larger one: the writer copies it as it is. */
class Verbatim {
  constructor(readonly text: CanonicalText) {}
}

/**
 * A member value that is already canonical text (e.g. a payload stored in its canonical form):
 * canonicalJson writes the text where it meets the returned value, instead of a JSON string.
 */
export function verbatim(text: CanonicalText): object {
  return new Verbatim(text);
}

/**
 * RFC 8785 (JCS) canonical JSON: members sorted by the UTF-16 code units of their names (section
 * 3.2.3), strings escaped and numbers written as ECMAScript's JSON.stringify does (sections 3.2.2.2
 * and 3.2.2.3), no whitespace.
 *
 * Every value JSON.stringify would silently drop, null or mangle is rejected with
 * CanonicalizationError, which names the path of the offending value:
 * - undefined at the top level or inside an array, functions, symbols, BigInt, NaN, ±Infinity;
 * - strings (values or property names) with lone surrogates (RFC 8785 section 3.2.2.2);
 * - Map, Set, ArrayBuffer and typed arrays/Buffers (would become `{}` or `{"0":..}`):
 *   encode binary data explicitly (base64) before hashing;
 * - cycles.
 * Object properties whose value is undefined are omitted, as JSON.stringify does, because
 * TypeScript optional fields are routinely present-but-undefined. Objects with toJSON (Date) are
 * serialised through it, so a hash computed from a record equals the one recomputed from its JSON
 * API output.
 *
 * `known` maps objects met inside `value` to their canonical text, already written (the verdict's
 * consultation record holds the very objects its context_hash has just serialised, so they are not
 * walked twice); a verbatim() value is written as its text.
 *
 * One pass writes as it walks. Plain JSON data (parsed bodies and records built from them), the
 * common case, goes through a pass without path bookkeeping that sorts keys only when they are out of
 * order; anything else (a Date, a class instance, a cycle, a value to refuse) falls back to a careful
 * pass that handles it or names the path. canonical-json.spec.ts checks the output byte for byte
 * against the `canonicalize` package on random JSON.
 */
export function canonicalJson(value: unknown, known: KnownTexts | null = null): CanonicalText {
  if (value !== undefined) {
    try {
      return writeFast(value, known) as CanonicalText;
    } catch {
      // UNFIT, or the stack overflow of a cycle: the careful pass handles it or says where and why.
    }
  }
  return write(value, '', '', known, new Set()) as CanonicalText;
}

/**
 * JSON text of an object whose first members are `leading`, followed by the members of `rest` (the
 * canonical text of an object) as they are. Not canonical itself (the leading members come first):
 * a stored form that keeps the hashed text of `rest` as a substring.
 */
export function withLeadingMembers(leading: Record<string, unknown>, rest: CanonicalText): string {
  if (rest[0] !== '{') throw new CanonicalizationError('withLeadingMembers needs the text of an object', '');
  let out = '{';
  for (const name of Object.keys(leading)) {
    if (leading[name] === undefined) continue;
    out += (out.length > 1 ? ',' : '') + canonicalJson(name) + ':' + canonicalJson(leading[name]);
  }
  if (rest.length === 2) return `${out}}`;
  return out.length > 1 ? `${out},${rest.slice(1)}` : rest;
}

/** Thrown by the fast pass at the first value it does not handle; the careful pass then takes over. */
const UNFIT = Symbol('unfit');

/** A string JSON.stringify would escape: only these need its (slower) call to be quoted. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** JSON.stringify(s) for a well-formed string (section 3.2.2.2), without its call for the common plain ones. */
const quote = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/** The fast pass: plain JSON data only, no path bookkeeping; throws UNFIT at anything else. */
function writeFast(value: unknown, known: KnownTexts | null): string {
  switch (typeof value) {
    case 'string':
      if (!(value as string).isWellFormed()) throw UNFIT;
      return quote(value as string);
    case 'number':
      if (!Number.isFinite(value)) throw UNFIT;
      // Section 3.2.2.3: the ECMAScript Number-to-String form (JSON.stringify writes -0 as 0).
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (known !== null) {
        const done = known.get(value);
        if (done !== undefined) return done;
      }
      if (Array.isArray(value)) {
        if (value.length === 0) return '[]';
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) throw UNFIT;
          if (i) out += ',';
          out += writeFast(value[i], known);
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        if (value instanceof Verbatim) return value.text;
        throw UNFIT;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      // Section 3.2.3: members sorted by the UTF-16 code units of their names (the default sort).
      for (let i = 1; i < keys.length; i++) {
        if (keys[i - 1] > keys[i]) {
          keys.sort();
          break;
        }
      }
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = obj[k];
        if (v === undefined) continue;
        if (!k.isWellFormed()) throw UNFIT;
        if (out.length > 1) out += ',';
        out += quote(k) + ':' + writeFast(v, known);
      }
      return `${out}}`;
    }
    default:
      throw UNFIT;
  }
}

/** The careful pass: any value, the same text as the fast pass for plain data, or a CanonicalizationError naming the path. */
function write(value: unknown, key: string, path: string, known: KnownTexts | null, open: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return str(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`${value} is not a JSON number`, path);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      throw new CanonicalizationError('undefined is not a JSON value', path);
    case 'bigint':
      throw new CanonicalizationError('BigInt is not a JSON value (use a string or a safe integer)', path);
    case 'function':
    case 'symbol':
      throw new CanonicalizationError(`a ${typeof value} is not a JSON value`, path);
  }
  if (value === null) return 'null';
  const obj = value as object;
  const done = known?.get(obj);
  if (done !== undefined) return done;
  if (obj instanceof Verbatim) return obj.text;
  if (obj instanceof Map || obj instanceof Set || obj instanceof WeakMap || obj instanceof WeakSet) {
    throw new CanonicalizationError(`a ${obj.constructor.name} is not a JSON value`, path);
  }
  if (obj instanceof ArrayBuffer || ArrayBuffer.isView(obj)) {
    throw new CanonicalizationError('binary data is not a JSON value (encode it as base64 first)', path);
  }
  if (open.has(obj)) throw new CanonicalizationError('circular reference', path);

  open.add(obj);
  let out: string;
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    out = write(toJSON.call(obj, key), key, path, known, open);
  } else if (Array.isArray(obj)) {
    out = '[';
    for (let i = 0; i < obj.length; i++) out += (i ? ',' : '') + write(obj[i], String(i), `${path}/${i}`, known, open);
    out += ']';
  } else {
    const record = obj as Record<string, unknown>;
    out = '{';
    for (const name of Object.keys(record).sort()) {
      const item = record[name];
      if (item === undefined) continue;
      const itemPath = `${path}/${escapePointer(name)}`;
      out += (out.length > 1 ? ',' : '') + str(name, itemPath) + ':' + write(item, name, itemPath, known, open);
    }
    out += '}';
  }
  open.delete(obj);
  return out;
}

/** Section 3.2.2.2: strings must be valid Unicode (a lone surrogate has no UTF-8 form). */
function str(s: string, path: string): string {
  if (!s.isWellFormed()) throw new CanonicalizationError('string contains a lone surrogate', path);
  return quote(s);
}

/** RFC 6901 escaping, for readable error paths only. */
function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
