// Condition rows (docs/verdicts.md), compiled once into predicates over a present field value.
// Every operator is total: a value of the wrong type makes the row false, never an exception
// (`gt` on a string is false), except that neq and not_in are the negations of eq and in.
import { PolicyCompileError } from './errors';
import type { Condition, ConditionOp } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime, isoToMillis, isScalar, jsonEqual } from './values';

export const CONDITION_OPS: readonly ConditionOp[] = [
  'eq',
  'neq',
  'in',
  'not_in',
  'gt',
  'gte',
  'lt',
  'lte',
  'exists',
  'contains',
  'starts_with',
];

export type ValueTest = (value: unknown) => boolean;

export interface CompiledCondition {
  field: string;
  op: ConditionOp;
  /** The row's value as written (explain.ts inverts rows from it). */
  value: unknown;
  /** For exists: whether the field must be present (true) or absent (false); null for other ops. */
  expectPresent: boolean | null;
  /** For other ops: the test on the present value. */
  test: ValueTest;
}

function equalTo(expected: unknown): ValueTest {
  if (isScalar(expected) || expected === null) return (v) => v === expected;
  return (v) => jsonEqual(v, expected);
}

function memberOf(list: readonly unknown[]): ValueTest {
  const scalars = new Set<unknown>();
  const others: unknown[] = [];
  for (const item of list) {
    if (isScalar(item) || item === null) scalars.add(item);
    else others.push(item);
  }
  if (others.length === 0) return (v) => scalars.has(v);
  return (v) => scalars.has(v) || others.some((o) => jsonEqual(v, o));
}

type Comparison = (a: number, b: number) => boolean;
const COMPARISONS: Record<'gt' | 'gte' | 'lt' | 'lte', Comparison> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

/** Numbers compare as numbers; ISO dates and timestamps compare as instants; nothing else compares. */
function ordered(cmp: Comparison, bound: unknown): ValueTest {
  if (isFiniteNumber(bound)) return (v) => isFiniteNumber(v) && cmp(v, bound);
  if (isIsoDate(bound) || isIsoDateTime(bound)) {
    const ms = isoToMillis(bound);
    if (Number.isNaN(ms)) return () => false;
    return (v) => {
      if (typeof v !== 'string') return false;
      const t = isoToMillis(v);
      return !Number.isNaN(t) && cmp(t, ms);
    };
  }
  return () => false;
}

function contains(expected: unknown): ValueTest {
  const eq = equalTo(expected);
  return (v) => {
    if (typeof v === 'string') return typeof expected === 'string' && v.includes(expected);
    if (Array.isArray(v)) return v.some(eq);
    return false;
  };
}

function startsWith(prefix: unknown): ValueTest {
  if (typeof prefix !== 'string') return () => false;
  return (v) => typeof v === 'string' && v.startsWith(prefix);
}

export function compileCondition(c: Condition, ruleId: string): CompiledCondition {
  if (!c || typeof c.field !== 'string' || c.field === '') {
    throw new PolicyCompileError('invalid_rule', 'a condition has no field', ruleId);
  }
  // One object literal for every op, so that all compiled conditions share one hidden class.
  const make = (test: ValueTest, expectPresent: boolean | null = null): CompiledCondition => ({
    field: c.field,
    op: c.op,
    value: c.value,
    expectPresent,
    test,
  });
  switch (c.op) {
    case 'eq':
      return make(equalTo(c.value));
    case 'neq': {
      const eq = equalTo(c.value);
      return make((v) => !eq(v));
    }
    case 'in':
    case 'not_in': {
      if (!Array.isArray(c.value)) {
        throw new PolicyCompileError('invalid_rule', `condition on ${c.field}: ${c.op} needs an array value`, ruleId);
      }
      const member = memberOf(c.value);
      return make(c.op === 'in' ? member : (v) => !member(v));
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return make(ordered(COMPARISONS[c.op], c.value));
    case 'exists': {
      if (c.value !== undefined && c.value !== null && typeof c.value !== 'boolean') {
        throw new PolicyCompileError('invalid_rule', `condition on ${c.field}: exists takes a boolean value`, ruleId);
      }
      return make(() => true, c.value !== false);
    }
    case 'contains':
      return make(contains(c.value));
    case 'starts_with':
      return make(startsWith(c.value));
    default:
      throw new PolicyCompileError('invalid_rule', `condition on ${c.field}: unknown op ${String(c.op)}`, ruleId);
  }
}
