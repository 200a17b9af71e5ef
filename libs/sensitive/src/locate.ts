// Finding the sensitive values of a request and replacing them (docs/verdicts.md "Sensitive fields"). Rules read
// a field from the context Fact keyed by its exact dot path, else from the parameters (libs/policy field-path.ts);
// a sensitive field is protected wherever the request can carry it:
//   - parameters at the field's path (`parameters.<field>`);
//   - the value of the Fact keyed by the field (`context.<field>`), or by a path under it (`context.<field>.<more>`);
//   - inside the value of a Fact keyed by a prefix of the field (`context.<prefix>.value.<rest>`).
// Pure and copy-on-write: the objects handed in are never changed, so the engine keeps the plain values.
import { canonicalJson } from '@arbiter/canonical';
import type { SensitivePath, SensitivePolicy } from './settings';

/** A Fact as the request carries it: its value and its provenance members. */
export type FactLike = { value?: unknown };

export interface Replaced<F extends FactLike> {
  parameters: Record<string, unknown>;
  context: Record<string, F>;
  /** Each replaced value by where it was found, in the order found. */
  found: Map<string, unknown>;
}

const INDEX = /^(0|[1-9]\d*)$/;
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Copy of `root` with the value at `segments` replaced, or null when nothing is there (or root is not a container). */
function replaceAt(root: unknown, segments: readonly string[], replace: (value: unknown) => unknown): unknown {
  if (segments.length === 0) return root === undefined ? null : { value: replace(root) };
  if (root === null || typeof root !== 'object') return null;
  const [head, ...rest] = segments;
  if (Array.isArray(root)) {
    if (!INDEX.test(head)) return null;
    const i = Number(head);
    if (i >= root.length) return null;
    const inner = replaceAt(root[i], rest, replace);
    if (inner === null) return null;
    const copy = [...root];
    copy[i] = (inner as { value: unknown }).value;
    return { value: copy };
  }
  if (!hasOwn(root, head)) return null;
  const inner = replaceAt((root as Record<string, unknown>)[head], rest, replace);
  if (inner === null) return null;
  return { value: { ...(root as Record<string, unknown>), [head]: (inner as { value: unknown }).value } };
}

/** The value at `segments` (own members, decimal array indexes), or undefined. */
function valueAt(root: unknown, segments: readonly string[]): unknown {
  let cur = root;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) cur = INDEX.test(seg) ? cur[Number(seg)] : undefined;
    else cur = hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur;
}

/**
 * The request's parameters and context with every sensitive value replaced by `replace(location, value)`, and the
 * values found by location (`parameters.card`, `context.card`). Nothing found: the same objects back.
 */
export function replaceSensitive<F extends FactLike>(
  policy: SensitivePolicy,
  parameters: Record<string, unknown>,
  context: Record<string, F>,
  replace: (location: string, value: unknown) => unknown,
): Replaced<F> {
  const found = new Map<string, unknown>();
  const swap = (location: string) => (value: unknown) => {
    found.set(location, value);
    return replace(location, value);
  };
  let params = parameters;
  for (const f of policy.fields) {
    const out = replaceAt(params, f.segments, swap(`parameters.${f.field}`));
    if (out !== null) params = (out as { value: Record<string, unknown> }).value;
  }
  let ctx = context;
  for (const [key, fact] of Object.entries(context)) {
    if (fact === null || typeof fact !== 'object' || !hasOwn(fact, 'value')) continue;
    let value = fact.value;
    for (const at of factPaths(policy.fields, key)) {
      const location = at.length === 0 ? `context.${key}` : `context.${key}.value.${at.join('.')}`;
      const out = replaceAt(value, at, swap(location));
      if (out !== null) value = (out as { value: unknown }).value;
    }
    if (value !== fact.value) ctx = { ...ctx, [key]: { ...fact, value } };
  }
  return { parameters: params, context: ctx, found };
}

/**
 * Where in the value of the Fact keyed `key` sensitive values lie: [[]] for the whole value (the key is a sensitive
 * field or under one); for a Fact keyed by a prefix of sensitive fields, the rest of every one of them (`card` holds
 * both `card.number` and `card.cvv`), in the policy's order; none otherwise.
 */
function factPaths(fields: readonly SensitivePath[], key: string): (readonly string[])[] {
  if (fields.some((f) => key === f.field || key.startsWith(`${f.field}.`))) return [[]];
  return fields.filter((f) => f.field.startsWith(`${key}.`)).map((f) => f.field.slice(key.length + 1).split('.'));
}

/** The longest subject an erasure names, so the longest a check keeps a key for (docs/operations.md "Erasure"). */
export const MAX_SUBJECT_LENGTH = 1024;

/**
 * The name of a data subject as checks and erasures alike use it (docs/verdicts.md "Sensitive fields"): a string as
 * it is, a finite number as its JSON text (RFC 8785), so 42 and "42" name one subject; null for an empty string, a
 * name longer than MAX_SUBJECT_LENGTH characters, or anything else.
 */
export function subjectName(value: unknown): string | null {
  const name = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? canonicalJson(value) : null;
  return name === null || name === '' || name.length > MAX_SUBJECT_LENGTH ? null : name;
}

/** The data subject of a request (docs/verdicts.md "Sensitive fields"): the subjectName of the value at the subject path, else null. */
export function subjectOf(policy: SensitivePolicy, parameters: Record<string, unknown>, context: Record<string, FactLike>): string | null {
  if (!policy.subject) return null;
  const { field, segments } = policy.subject;
  // Read like a rule reads it: the Fact keyed by the path first, then the parameters.
  let value: unknown;
  const fact = hasOwn(context, field) ? context[field] : undefined;
  if (fact && typeof fact === 'object' && hasOwn(fact, 'value')) value = fact.value;
  else value = valueAt(parameters, segments);
  return subjectName(value);
}

/** A location's value in `restoreSensitive`: absent (erased) when the map holds undefined for it. */
export type Restored = ReadonlyMap<string, unknown>;

/** Copy of `root` with the value at `segments` set to `value`, or the member removed when `value` is undefined; null when the path is not there. */
function setAt(root: unknown, segments: readonly string[], value: unknown): { value: unknown } | null {
  const [head, ...rest] = segments;
  if (root === null || typeof root !== 'object') return null;
  if (Array.isArray(root)) {
    if (!INDEX.test(head) || Number(head) >= root.length) return null;
    const copy = [...root];
    if (rest.length === 0) {
      // An array keeps its length: an erased element reads as null.
      copy[Number(head)] = value === undefined ? null : value;
      return { value: copy };
    }
    const inner = setAt(root[Number(head)], rest, value);
    if (inner === null) return null;
    copy[Number(head)] = inner.value;
    return { value: copy };
  }
  if (!hasOwn(root, head)) return null;
  const copy: Record<string, unknown> = { ...(root as Record<string, unknown>) };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return { value: copy };
  }
  const inner = setAt(copy[head], rest, value);
  if (inner === null) return null;
  copy[head] = inner.value;
  return { value: copy };
}

/**
 * The inverse of replaceSensitive for a stored record (a simulation, an explanation): each location of `values`
 * (`parameters.<field>`, `context.<fact key>`, `context.<fact key>.value.<rest>`) gets its plain value back; an
 * erased one (undefined) is removed, so a rule that reads it finds it absent. Copy-on-write.
 */
export function restoreSensitive<F extends FactLike>(
  parameters: Record<string, unknown>,
  context: Record<string, F>,
  values: Restored,
): { parameters: Record<string, unknown>; context: Record<string, F> } {
  let params = parameters;
  let ctx = context;
  for (const [location, value] of values) {
    if (location.startsWith('parameters.')) {
      const out = setAt(params, location.slice('parameters.'.length).split('.'), value);
      if (out !== null) params = out.value as Record<string, unknown>;
      continue;
    }
    if (!location.startsWith('context.')) continue;
    const rest = location.slice('context.'.length);
    if (hasOwn(ctx, rest)) {
      if (value === undefined) {
        const { [rest]: _erased, ...others } = ctx;
        ctx = others as Record<string, F>;
      } else ctx = { ...ctx, [rest]: { ...ctx[rest], value } };
      continue;
    }
    for (const key of Object.keys(ctx)) {
      if (!rest.startsWith(`${key}.value.`)) continue;
      const out = setAt(ctx[key].value, rest.slice(key.length + '.value.'.length).split('.'), value);
      if (out !== null) ctx = { ...ctx, [key]: { ...ctx[key], value: out.value } };
      break;
    }
  }
  return { parameters: params, context: ctx };
}
