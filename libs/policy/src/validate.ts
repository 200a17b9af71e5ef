// Write-time checks of a rule's machine-readable fields (docs/verdicts.md), shared by the registry
// (which refuses a rule that fails them with 400) and the compiler (which refuses to evaluate one).
// A JSON schema already checks types and enums; these are what it cannot say: the value each
// condition op needs, enum requirements with their values, ordered bounds, duplicate globs, the stream
// glob of a `ledger:<stream glob>` source.
import { sourceEntryProblem } from './sources';
import type { Condition, Requirement } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime } from './values';

/** The fields of a rule these checks read, as the registry's API and the engine both spell them. */
export interface RuleFields {
  conditions?: readonly Condition[] | null;
  requires?: readonly Requirement[] | null;
  applies_to?: { actions?: readonly string[] | null; resources?: readonly string[] | null } | null;
}

/**
 * What is wrong with a condition row's value for its op, or null. Ordered ops compare numbers as
 * numbers and ISO dates or timestamps as instants; any other bound could never be true, so a rule
 * written with one would silently never fire: it is refused instead (fail closed).
 */
export function conditionProblem(row: Condition): string | null {
  const v = row.value;
  switch (row.op) {
    case 'eq':
    case 'neq':
    case 'contains':
      return v !== undefined ? null : `op ${row.op} needs a value`;
    case 'in':
    case 'not_in':
      return Array.isArray(v) ? null : `op ${row.op} needs an array value`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return isFiniteNumber(v) || isIsoDate(v) || isIsoDateTime(v)
        ? null
        : `op ${row.op} needs a number or an ISO 8601 date or timestamp value`;
    case 'exists':
      return v === undefined || v === null || typeof v === 'boolean' ? null : 'op exists takes true, false or no value';
    case 'starts_with':
      return typeof v === 'string' ? null : 'op starts_with needs a string value';
    default:
      return `unknown op ${String(row.op)}`;
  }
}

/** What is wrong with a Requirement beyond its JSON types. */
export function requirementProblems(req: Requirement): string[] {
  const problems: string[] = [];
  if (req.type === 'enum' && !req.allowed_values?.length) problems.push('type enum needs allowed_values');
  if (isFiniteNumber(req.min) && isFiniteNumber(req.max) && req.min > req.max) problems.push('min is greater than max');
  for (const entry of req.acceptable_sources ?? []) {
    const p = typeof entry === 'string' ? sourceEntryProblem(entry) : null;
    if (p) problems.push(`acceptable_sources: ${p}`);
  }
  return problems;
}

/** Every problem of a rule's conditions, requirements and applies_to, each prefixed with where it is. */
export function ruleProblems(rule: RuleFields): string[] {
  const problems: string[] = [];
  (rule.conditions ?? []).forEach((row, i) => {
    const p = conditionProblem(row);
    if (p) problems.push(`conditions[${i}]: ${p}`);
  });
  (rule.requires ?? []).forEach((req, i) => problems.push(...requirementProblems(req).map((p) => `requires[${i}]: ${p}`)));
  for (const key of ['actions', 'resources'] as const) {
    const globs = rule.applies_to?.[key];
    if (globs && new Set(globs).size !== globs.length) problems.push(`applies_to.${key}: duplicate globs`);
  }
  return problems;
}
