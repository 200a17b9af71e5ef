// Reading a condition or requirement field from a request (docs/verdicts.md). Field names are dot
// paths, split once at compile time. `action`, `resource` and `scope.<field>` always read the request
// itself and can never be supplied (or spoofed) as context Facts. Any other path reads, in order:
//   1. the context Fact keyed by the exact dot path (a Fact at `transfer` does not supply `transfer.amount`);
//   2. in check only, `parameters` descended one segment at a time (own properties only; array indexes
//      are decimal segments), so `transfer.amount` reads parameters.transfer.amount.
// A check whose Fact holds another value than the parameters at its path is refused before it is
// evaluated (factContradictingParameters), so both readings give one value per path: the Fact is read
// first only for its provenance (source, verification, confidence).
// A value of `undefined` is absent; JSON null is a present value meaning "known to have no value".
import type { EvaluationRequest, Fact } from './types';
import { jsonEqual } from './values';

export type FieldSource = 'action' | 'resource' | 'scope' | 'scope_field' | 'path';

export interface FieldAccessor {
  readonly path: string;
  readonly source: FieldSource;
  /** scope_field: the scope key; path: the segments. */
  readonly key: string;
  readonly segments: readonly string[];
  /**
   * No segment (nor the key) names a property of Object.prototype, so a plain property read cannot pick
   * up an inherited value and the hasOwnProperty check can be skipped on the hot path.
   */
  readonly plain: boolean;
}

const inherited = (name: string): boolean => name in Object.prototype;

export function compileAccessor(path: string): FieldAccessor {
  if (path === 'action' || path === 'resource' || path === 'scope') {
    return { path, source: path, key: '', segments: [], plain: true };
  }
  if (path.startsWith('scope.')) {
    const key = path.slice(6);
    return { path, source: 'scope_field', key, segments: [], plain: !inherited(key) };
  }
  const segments = path.split('.');
  return { path, source: 'path', key: path, segments, plain: !inherited(path) && !segments.some(inherited) };
}

const hasOwn = Object.prototype.hasOwnProperty;

const INDEX = /^(0|[1-9]\d*)$/;

function descend(root: unknown, segments: readonly string[], plain: boolean): unknown {
  let cur: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!INDEX.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (plain) {
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      if (!hasOwn.call(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    }
  }
  return cur;
}

/** The value read and, when it came from a context Fact, that Fact. */
export interface FieldRead {
  value: unknown;
  fact: Fact | null;
}

/** Reads a field; `value` undefined means absent. Reuses `out` to keep the hot path allocation-free. */
export function readField(acc: FieldAccessor, req: EvaluationRequest, out: FieldRead): FieldRead {
  out.fact = null;
  switch (acc.source) {
    case 'action':
      out.value = req.action;
      return out;
    case 'resource':
      out.value = req.resource;
      return out;
    case 'scope':
      out.value = req.scope;
      return out;
    case 'scope_field':
      out.value = acc.plain || hasOwn.call(req.scope, acc.key) ? req.scope[acc.key] : undefined;
      return out;
    case 'path': {
      const ctx = req.context;
      if (ctx) {
        const fact = acc.plain || hasOwn.call(ctx, acc.key) ? ctx[acc.key] : undefined;
        if (fact && typeof fact === 'object' && fact.value !== undefined) {
          out.fact = fact;
          out.value = fact.value;
          return out;
        }
      }
      out.value = req.mode === 'check' && req.parameters ? descend(req.parameters, acc.segments, acc.plain) : undefined;
      return out;
    }
  }
}

/**
 * The value at a dot path below `root`, read as conditions read `parameters` (own properties only,
 * array indexes as decimal segments); undefined when there is none. The gateway reads a ledger fact's
 * `custom_payload` at a Fact's `payload_path` with it (docs/verdicts.md "Facts the ledger vouches for").
 */
export function valueAtPath(root: unknown, path: string): unknown {
  return descend(root, path.split('.'), false);
}

/**
 * The first context field (in key order) whose Fact restates something the parameters hold with another
 * value (docs/verdicts.md "Parameters and context"): the parameters hold a value at the Fact's path, or an
 * object or array whose members the Fact's path names (the Fact at `transfer` while the parameters hold
 * `transfer.amount`), and it is not the Fact's value (RFC 8785 equality). null when every Fact agrees or
 * names a path the parameters leave out. Parameters are what the executor will do and are signed; a Fact
 * may describe the world around them, never say otherwise.
 */
export function factContradictingParameters(
  parameters: Readonly<Record<string, unknown>>,
  context: Readonly<Record<string, Fact>>,
): string | null {
  for (const field of Object.keys(context)) {
    const held = valueAtPath(parameters, field);
    if (held !== undefined && !jsonEqual(held, context[field].value)) return field;
  }
  return null;
}
