// The parsing kit: the small readers every hand-written body parser uses on parsed JSON (the verdict's
// check, resolve and simulation bodies, the ledger's seal bodies, the registry's internal inputs, the
// SDK's argument facts). Each caller keeps its own error codes and words: the readers say what is
// wrong, the caller throws. Pure, no I/O.

import type { JsonPath } from './storable';

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

/**
 * The path to the first member name, at any depth of `root` (through arrays too), that `bad` refuses, in
 * document order; null when there is none. Walks with its own stack, so no nesting is too deep for it.
 */
export function findMemberName(root: unknown, bad: (name: string) => boolean): JsonPath | null {
  // Each entry links to its parent; the path is built only for a hit.
  interface Entry {
    parent: Entry | null;
    step: string | number | null;
    value: unknown;
  }
  const stack: Entry[] = [{ parent: null, step: null, value: root }];
  while (stack.length) {
    const entry = stack.pop()!;
    if (typeof entry.step === 'string' && bad(entry.step)) {
      const path: JsonPath = [];
      for (let e: Entry | null = entry; e?.step != null; e = e.parent) path.unshift(e.step);
      return path;
    }
    const value = entry.value;
    if (value === null || typeof value !== 'object') continue;
    const steps: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    // Pushed last to first, so that the first member is looked at (with all below it) first.
    for (let i = steps.length - 1; i >= 0; i--) {
      stack.push({ parent: entry, step: steps[i], value: (value as Record<string | number, unknown>)[steps[i]] });
    }
  }
  return null;
}
