import canonicalize from 'canonicalize';
import { CanonicalizationError } from './errors';

/** A value of the JSON data model (RFC 8259) that RFC 8785 can serialise. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * RFC 8785 (JCS) canonical JSON.
 *
 * Serialisation itself (ES2015 number formatting, string escaping, property sorting by UTF-16
 * code units) is done by the `canonicalize` package. Before that, the value is reduced to the
 * JSON data model and every value JSON.stringify would silently drop, null or mangle is
 * rejected with CanonicalizationError:
 * - undefined at the top level or inside an array, functions, symbols, BigInt, NaN, ±Infinity;
 * - strings (values or property names) with lone surrogates (RFC 8785 section 3.2.2.2);
 * - Map, Set, ArrayBuffer and typed arrays/Buffers (would become `{}` or `{"0":..}`):
 *   encode binary data explicitly (base64) before hashing;
 * - cycles.
 * Object properties whose value is undefined are omitted, as JSON.stringify does, because
 * TypeScript optional fields are routinely present-but-undefined. Objects with toJSON (Date)
 * are serialised through it, so a hash computed from a record equals the one recomputed from
 * its JSON API output.
 */
export function canonicalJson(value: unknown): string {
  const normalized = toJsonValue(value, '', new Set(), '');
  const out = canonicalize(normalized);
  // Unreachable after normalisation; kept so a library change cannot yield a non-string.
  if (typeof out !== 'string') throw new CanonicalizationError('value has no JSON representation', '');
  return out;
}

function toJsonValue(value: unknown, key: string, seen: Set<object>, path: string): JsonValue {
  switch (typeof value) {
    case 'string':
      assertNoLoneSurrogate(value, path);
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`${value} is not a JSON number`, path);
      return value;
    case 'undefined':
      throw new CanonicalizationError('undefined is not a JSON value', path);
    case 'bigint':
      throw new CanonicalizationError('BigInt is not a JSON value (use a string or a safe integer)', path);
    case 'function':
    case 'symbol':
      throw new CanonicalizationError(`a ${typeof value} is not a JSON value`, path);
  }
  if (value === null) return null;
  const obj = value as object;
  if (obj instanceof Map || obj instanceof Set || obj instanceof WeakMap || obj instanceof WeakSet) {
    throw new CanonicalizationError(`a ${obj.constructor.name} is not a JSON value`, path);
  }
  if (obj instanceof ArrayBuffer || ArrayBuffer.isView(obj)) {
    throw new CanonicalizationError('binary data is not a JSON value (encode it as base64 first)', path);
  }
  if (seen.has(obj)) throw new CanonicalizationError('circular reference', path);

  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    seen.add(obj);
    const result = toJsonValue(toJSON.call(obj, key), key, seen, path);
    seen.delete(obj);
    return result;
  }

  seen.add(obj);
  let result: JsonValue;
  if (Array.isArray(obj)) {
    result = obj.map((item, i) => toJsonValue(item, String(i), seen, `${path}/${i}`));
  } else {
    // A null-prototype object: a "__proto__" property name stays an ordinary property.
    const out: { [key: string]: JsonValue } = Object.create(null);
    for (const name of Object.keys(obj)) {
      const item = (obj as Record<string, unknown>)[name];
      if (item === undefined) continue;
      const itemPath = `${path}/${escapePointer(name)}`;
      assertNoLoneSurrogate(name, itemPath);
      out[name] = toJsonValue(item, name, seen, itemPath);
    }
    result = out;
  }
  seen.delete(obj);
  return result;
}

/** RFC 8785 section 3.2.2.2: strings must be valid Unicode; a lone surrogate has no UTF-8 form. */
// In a /u regex a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function assertNoLoneSurrogate(s: string, path: string): void {
  if (LONE_SURROGATE.test(s)) throw new CanonicalizationError('string contains a lone surrogate', path);
}

/** RFC 6901 escaping, for readable error paths only. */
function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
