// RFC 8785 (JCS) for the hot path. @arbiter/canonical's canonicalJson first copies the whole value into
// a normalised tree, then serialises it: on every check that is done twice (context_hash and
// normative_hash), the largest part of the gateway's own work per check. The values hashed here are plain
// JSON data (parsed request bodies and the records built from them), so one pass that writes as it
// walks gives the same text. canonical-json.spec.ts proves it equal to @arbiter/canonical on random
// JSON values, and refusing what it refuses.
import { CanonicalizationError } from '@arbiter/canonical';

// Any surrogate code unit; only then is the exact (pairing) check below worth running.
const SURROGATE = /[\uD800-\uDFFF]/;
// In a /u regex a well-formed pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function str(s: string, path: string): string {
  // RFC 8785 section 3.2.2.2: strings must be valid Unicode (a lone surrogate has no UTF-8 form).
  if (SURROGATE.test(s) && LONE_SURROGATE.test(s)) throw new CanonicalizationError('string contains a lone surrogate', path);
  // ECMAScript JSON.stringify escapes exactly as RFC 8785 section 3.2.2.2 prescribes.
  return JSON.stringify(s);
}

type Known = ReadonlyMap<object, string> | null;

/** A string JSON.stringify would escape: only these need its (slower) call to be quoted. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** JSON.stringify(s) for a well-formed string, without its call for the common plain ones. */
const quote = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/** Thrown by the fast pass at the first value it cannot write; the careful pass then says where and why. */
const UNFIT = Symbol('unfit');

/**
 * The fast pass: no path bookkeeping, and keys sorted only when they are not in order already. It
 * stops at the first problem (UNFIT); write() below, which tracks paths, then names it.
 */
function writeFast(value: unknown, known: Known): string {
  switch (typeof value) {
    case 'string':
      if (!(value as string).isWellFormed()) throw UNFIT;
      return quote(value as string);
    case 'number':
      if (!Number.isFinite(value)) throw UNFIT;
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
      if (proto !== Object.prototype && proto !== null) throw UNFIT;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
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

/** The careful pass: the same text, or a CanonicalizationError naming the path of what is not JSON data. */
function write(value: unknown, path: string, known: Known): string {
  switch (typeof value) {
    case 'string':
      return str(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalizationError(`${value} is not a JSON number`, path);
      // RFC 8785 section 3.2.2.3: the ECMAScript Number-to-String form (JSON.stringify writes -0 as 0).
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const done = known?.get(value);
      if (done !== undefined) return done;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) throw new CanonicalizationError('undefined is not a JSON value', `${path}/${i}`);
          out += (i ? ',' : '') + write(value[i], `${path}/${i}`, known);
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new CanonicalizationError('only plain objects are hashed here', path);
      const obj = value as Record<string, unknown>;
      // RFC 8785 section 3.2.3: members sorted by the UTF-16 code units of their names (the default sort).
      const keys = Object.keys(obj).sort();
      let out = '{';
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue; // as JSON.stringify (and @arbiter/canonical) do
        out += (first ? '' : ',') + str(k, path) + ':' + write(v, `${path}/${k}`, known);
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new CanonicalizationError(`a ${typeof value} is not a JSON value`, path);
  }
}

/**
 * RFC 8785 canonical JSON of plain JSON data (no Dates, Maps, cycles: those throw). `known` maps
 * objects met inside `value` to their canonical JSON, already written: the consultation record holds
 * the very objects context_hash has just serialised (scope, parameters, context), so they are not
 * walked twice.
 */
export function canonicalJson(value: unknown, known: Known = null): string {
  if (value === undefined) throw new CanonicalizationError('undefined is not a JSON value', '');
  try {
    return writeFast(value, known);
  } catch (err) {
    if (err !== UNFIT) throw err;
  }
  // The careful pass throws the CanonicalizationError naming the path.
  return write(value, '', known);
}
