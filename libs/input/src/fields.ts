// The parsing kit: the small readers every hand-written body parser uses on parsed JSON (the verdict's
// check, resolve and simulation bodies, the ledger's seal bodies, the registry's internal inputs, the
// SDK's argument facts). Each caller keeps its own error codes and words: the readers say what is
// wrong, the caller throws. Pure, no I/O.

/** A JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `key` is the object's own member (a `__proto__` or `constructor` member of a parsed body included). */
export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The first member name of `obj` outside `allowed`, in the body's order, or undefined. */
export function unknownMember(obj: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  for (const key of Object.keys(obj)) if (!allowed.has(key)) return key;
  return undefined;
}

/** What is wrong with a member a reader was asked for. */
export type MemberProblem = 'missing' | 'invalid';

/**
 * The string member `key` of 1 to `max` characters. Absent and optional: undefined. Otherwise
 * `fail('missing')` (absent and required) or `fail('invalid')` (not such a string) is thrown.
 */
export function stringMember(
  obj: Record<string, unknown>,
  key: string,
  max: number,
  required: boolean,
  fail: (problem: MemberProblem) => Error,
): string | undefined {
  const v = obj[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw fail(v === undefined ? 'missing' : 'invalid');
  return v;
}

/** A JSON number that is an integer from `min` to `max`. */
export function isIntegerIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}
