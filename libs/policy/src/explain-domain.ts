// The domain of a change (explain.ts): the values a field's new value may take, as the condition rows
// asked of it (atoms), and what can be known for sure of every value in it. Pure.
import { compileCondition, type CompiledCondition } from './operators';
import type { Condition, ConditionOp } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime, isoToMillis } from './values';

/** A constraint on a field's new value: a condition row, compiled with the engine's own operators. */
export interface Atom {
  readonly cond: Condition;
  readonly test: CompiledCondition;
  readonly key: string;
}

export function atom(field: string, op: ConditionOp, value: unknown): Atom {
  const cond: Condition = { field, op, value };
  return { cond, test: compileCondition(cond, 'explanation'), key: `${op}:${JSON.stringify(value)}` };
}

export function atomHolds(a: Atom, v: unknown): boolean {
  if (a.test.expectPresent !== null) return (v !== undefined && v !== null) === a.test.expectPresent;
  return v !== undefined && a.test.test(v);
}

export function isOrdered(op: ConditionOp): boolean {
  return op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte';
}

/** The values a change allows when they are finitely many (eq, in, exists false); null otherwise. */
export function finiteMembers(atoms: readonly Atom[]): unknown[] | null {
  const eq = atoms.find((a) => a.cond.op === 'eq');
  const inList = atoms.find((a) => a.cond.op === 'in');
  const list = eq
    ? [eq.cond.value]
    : inList
      ? (inList.cond.value as unknown[])
      : atoms.some((a) => a.cond.op === 'exists' && a.cond.value === false)
        ? [null]
        : null;
  return list && list.filter((v) => atoms.every((a) => atomHolds(a, v)));
}

/**
 * Whether the bounds of an open domain imply an ordered row for every member: `b gte 5` implies
 * `b gt 2`. Bounds of another kind than the row's (numbers against dates) are left out, which can only
 * make the answer no.
 */
export function boundsImply(atoms: readonly Atom[], op: ConditionOp, value: unknown): boolean {
  const numeric = isFiniteNumber(value);
  if (!numeric && !isIsoDate(value) && !isIsoDateTime(value)) return false;
  const position = (x: unknown): number =>
    numeric ? (isFiniteNumber(x) ? x : NaN) : isIsoDate(x) || isIsoDateTime(x) ? isoToMillis(x) : NaN;
  const r = position(value);
  let lo = -Infinity;
  let loStrict = false;
  let hi = Infinity;
  let hiStrict = false;
  for (const a of atoms) {
    if (!isOrdered(a.cond.op)) continue;
    const b = position(a.cond.value);
    if (Number.isNaN(b)) continue;
    const strict = a.cond.op === 'gt' || a.cond.op === 'lt';
    if (a.cond.op === 'gt' || a.cond.op === 'gte') {
      if (b > lo || (b === lo && strict)) [lo, loStrict] = [b, strict];
    } else if (b < hi || (b === hi && strict)) [hi, hiStrict] = [b, strict];
  }
  switch (op) {
    case 'gt':
      return lo > r || (lo === r && loStrict);
    case 'gte':
      return lo >= r;
    case 'lt':
      return hi < r || (hi === r && hiStrict);
    case 'lte':
      return hi <= r;
    default:
      return false;
  }
}

/** The only values a row is false on, when they are finitely many: `exists` on null, `neq` and `not_in` on those they name. */
function failsOnlyOn(row: Atom): readonly unknown[] | null {
  if (row.test.expectPresent === true) return [null];
  if (row.cond.op === 'neq') return [row.cond.value];
  if (row.cond.op === 'not_in' && Array.isArray(row.cond.value)) return row.cond.value;
  return null;
}

const isInstant = (v: unknown): boolean => isIsoDate(v) || isIsoDateTime(v);

/**
 * Whether every value the domain admits makes one of `rows` hold: rows of an `any` rule on one field,
 * which may hold together for every value although none does alone (`exists` or `exists: false`; `gt 1`
 * or `lte 1` inside `gte 0`). Never yes when unsure (an answer no asks the search for one more change).
 *
 * Exact for a finite domain (each member is tried), and when one row is false on finitely many values
 * (only those are tried). An open domain with ordered bounds holds numbers only, or ISO instants only
 * (docs/verdicts.md "Condition ops"): each row and bound is then constant between the values they
 * name, so those values, a point between each two and one beyond each end are tried. Among instants
 * only ordered rows and bounds count: every other row and exclusion tests the spelling, which another
 * spelling of the same instant escapes.
 */
export function coveredBy(domain: readonly Atom[], rows: readonly Atom[]): boolean {
  const someHolds = (v: unknown, among: readonly Atom[] = rows) => among.some((r) => atomHolds(r, v));
  const admits = (v: unknown, bounds: readonly Atom[] = domain) => bounds.every((a) => atomHolds(a, v));
  const members = finiteMembers(domain);
  if (members !== null) return members.every((v) => someHolds(v));
  for (const r of rows) {
    const escaping = failsOnlyOn(r);
    if (escaping !== null && escaping.filter((v) => admits(v)).every((v) => someHolds(v))) return true;
  }
  const bounds = domain.filter((a) => isOrdered(a.cond.op));
  if (bounds.some((a) => isFiniteNumber(a.cond.value))) {
    const named = [...domain, ...rows].flatMap((a) => (Array.isArray(a.cond.value) ? a.cond.value : [a.cond.value])).filter(isFiniteNumber);
    return probes(named, (x, y) => (x + y) / 2).every((v) => !admits(v) || someHolds(v));
  }
  if (bounds.some((a) => isInstant(a.cond.value))) {
    const timed = rows.filter((r) => isOrdered(r.cond.op));
    const named = [...bounds, ...timed].filter((a) => isInstant(a.cond.value)).map((a) => isoToMillis(a.cond.value));
    return probes(named, (x, y) => Math.floor((x + y) / 2))
      .map((ms) => new Date(ms).toISOString())
      .every((v) => !admits(v, bounds) || someHolds(v, timed));
  }
  return false;
}

/** The points named, one between each two that has room, and one beyond each end. */
function probes(named: readonly number[], between: (x: number, y: number) => number): number[] {
  const points = [...new Set(named)].filter(Number.isFinite).sort((x, y) => x - y);
  if (points.length === 0) return [];
  const out = [points[0] - 1, ...points, points[points.length - 1] + 1];
  for (let i = 1; i < points.length; i++) {
    const m = between(points[i - 1], points[i]);
    if (m > points[i - 1] && m < points[i]) out.push(m);
  }
  return out;
}
