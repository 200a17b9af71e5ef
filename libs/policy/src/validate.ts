// Write-time checks of a rule's machine-readable fields (docs/verdicts.md), shared by the registry
// (which refuses a rule that fails them with 400) and the compiler (which refuses to evaluate one).
// A JSON schema already checks types and enums; these are what it cannot say: the value each
// condition op needs, enum requirements with their values, ordered bounds, duplicate globs, the stream
// glob of a `ledger:<stream glob>` source, and the bounds on what a rule may hold (RULE_LIMITS), which
// the compiler enforces again.
import { approvalFieldProblems, type ApprovalFieldsInput } from './approval-terms';
import { isWellFormed } from './glob';
import { sourceEntryProblem } from './sources';
import { ruleVerdictProblem } from './severities';
import type { Condition, Requirement, Severity } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime } from './values';
import { protoPathProblems, windowFieldProblems, type WindowFieldsInput } from './window-rules';

/**
 * What one rule may hold (docs/verdicts.md "Rule limits"). The engine's cost per candidate rule grows
 * with these, so they bound what one rule can cost a check; the number of rules is bounded by the
 * evaluation budget instead. Generous for real rules: the largest the project has seen are a few globs
 * with one or two wildcards, and `in` lists of a few dozen values.
 */
export const RULE_LIMITS = Object.freeze({
  /** Globs in `applies_to.actions`, and in `applies_to.resources`. */
  globsPerList: 100,
  /** Characters (UTF-16 code units, as JSON Schema counts them) of one glob. */
  globLength: 500,
  /** `*` and `?` in one glob, together. */
  wildcardsPerGlob: 64,
  conditions: 100,
  requires: 100,
  /** Elements of an `in` or `not_in` value. */
  listValues: 1000,
  /** Characters of one condition row's `value` written as JSON (its strings included). */
  valueJsonLength: 65_536,
  /** Characters of a condition's or requirement's field path. */
  fieldLength: 200,
  /** `allowed_values` of one Requirement. */
  allowedValues: 1000,
  /** `acceptable_sources` of one Requirement. */
  acceptableSources: 100,
});

/** The fields of a rule these checks read, as the registry's API and the engine both spell them. */
export interface RuleFields extends ApprovalFieldsInput, WindowFieldsInput {
  verdict?: string | null;
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

/** What is wrong with one glob beyond its type: emptiness, length, wildcards, a lone surrogate. */
function globProblem(glob: string): string | null {
  if (glob.length === 0) return 'a glob is empty';
  if (glob.length > RULE_LIMITS.globLength) return `a glob has at most ${RULE_LIMITS.globLength} characters; this one has ${glob.length}`;
  let wildcards = 0;
  for (let i = 0; i < glob.length; i++) if (glob[i] === '*' || glob[i] === '?') wildcards++;
  if (wildcards > RULE_LIMITS.wildcardsPerGlob)
    return `a glob has at most ${RULE_LIMITS.wildcardsPerGlob} wildcards (* and ? together); this one has ${wildcards}`;
  if (!isWellFormed(glob)) return 'a glob holds a lone surrogate (half of a UTF-16 pair)';
  return null;
}

const tooMany = (what: string, n: number, max: number): string => `at most ${max} ${what}; this rule has ${n}`;

/**
 * The problems of a rule against RULE_LIMITS, each prefixed with where it is. The registry refuses a
 * rule that has any (with ruleProblems); the compiler refuses to evaluate one (fail closed).
 */
export function ruleLimitProblems(rule: RuleFields): string[] {
  const problems: string[] = [];
  for (const key of ['actions', 'resources'] as const) {
    const globs = rule.applies_to?.[key];
    if (!Array.isArray(globs)) continue;
    if (globs.length > RULE_LIMITS.globsPerList)
      problems.push(`applies_to.${key}: ${tooMany('globs', globs.length, RULE_LIMITS.globsPerList)}`);
    globs.forEach((g, i) => {
      const p = typeof g === 'string' ? globProblem(g) : null;
      if (p) problems.push(`applies_to.${key}[${i}]: ${p}`);
    });
  }
  const conditions = Array.isArray(rule.conditions) ? rule.conditions : [];
  if (conditions.length > RULE_LIMITS.conditions)
    problems.push(`conditions: ${tooMany('condition rows', conditions.length, RULE_LIMITS.conditions)}`);
  conditions.forEach((row, i) => {
    if (typeof row?.field === 'string' && row.field.length > RULE_LIMITS.fieldLength)
      problems.push(`conditions[${i}].field: at most ${RULE_LIMITS.fieldLength} characters`);
    if ((row?.op === 'in' || row?.op === 'not_in') && Array.isArray(row.value) && row.value.length > RULE_LIMITS.listValues) {
      problems.push(
        `conditions[${i}].value: op ${row.op} takes at most ${RULE_LIMITS.listValues} values; this one has ${row.value.length}`,
      );
    }
    const json = row?.value === undefined ? undefined : JSON.stringify(row.value);
    if (json !== undefined && json.length > RULE_LIMITS.valueJsonLength) {
      problems.push(`conditions[${i}].value: at most ${RULE_LIMITS.valueJsonLength} characters as JSON; this one has ${json.length}`);
    }
  });
  const requires = Array.isArray(rule.requires) ? rule.requires : [];
  if (requires.length > RULE_LIMITS.requires) problems.push(`requires: ${tooMany('requirements', requires.length, RULE_LIMITS.requires)}`);
  requires.forEach((req, i) => {
    if (typeof req?.field === 'string' && req.field.length > RULE_LIMITS.fieldLength)
      problems.push(`requires[${i}].field: at most ${RULE_LIMITS.fieldLength} characters`);
    if (Array.isArray(req?.allowed_values) && req.allowed_values.length > RULE_LIMITS.allowedValues) {
      problems.push(`requires[${i}].allowed_values: at most ${RULE_LIMITS.allowedValues} values`);
    }
    if (Array.isArray(req?.acceptable_sources) && req.acceptable_sources.length > RULE_LIMITS.acceptableSources) {
      problems.push(`requires[${i}].acceptable_sources: at most ${RULE_LIMITS.acceptableSources} sources`);
    }
  });
  return problems;
}

/**
 * Every problem of a rule's conditions, requirements, applies_to, approval fields, limit and
 * requires_prior, each prefixed with where it is.
 */
export function ruleProblems(rule: RuleFields): string[] {
  const problems: string[] = ruleLimitProblems(rule);
  (rule.conditions ?? []).forEach((row, i) => {
    const p = conditionProblem(row);
    if (p) problems.push(`conditions[${i}]: ${p}`);
  });
  (rule.requires ?? []).forEach((req, i) => problems.push(...requirementProblems(req).map((p) => `requires[${i}]: ${p}`)));
  for (const key of ['actions', 'resources'] as const) {
    const globs = rule.applies_to?.[key];
    if (globs && new Set(globs).size !== globs.length) problems.push(`applies_to.${key}: duplicate globs`);
  }
  const verdict = rule.severity ? ruleVerdictProblem(rule.severity as Severity, rule.verdict) : null;
  if (verdict) problems.push(`verdict: ${verdict}`);
  problems.push(...approvalFieldProblems(rule));
  const windowProblems = windowFieldProblems(rule);
  problems.push(...windowProblems, ...(windowProblems.length ? [] : protoPathProblems(rule)));
  return problems;
}
