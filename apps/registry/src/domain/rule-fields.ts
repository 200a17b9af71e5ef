import type { AppliesTo, ConditionRow, Requirement, RuleBody } from '../models/rules';

/**
 * Checks of a rule's machine-readable fields (docs/verdicts.md) that a JSON schema cannot
 * express: the value each condition op needs, enum requirements with their values, bounds.
 * tsoa has already checked types, enums and patterns. Returns the problems (empty = valid).
 */
export function ruleProblems(body: RuleBody): string[] {
  const problems: string[] = [];
  (body.conditions ?? []).forEach((row, i) => problems.push(...conditionProblems(row, `conditions[${i}]`)));
  (body.requires ?? []).forEach((req, i) => problems.push(...requirementProblems(req, `requires[${i}]`)));
  if (body.applies_to) problems.push(...appliesToProblems(body.applies_to));
  return problems;
}

function conditionProblems(row: ConditionRow, at: string): string[] {
  const v = row.value;
  const has = v !== undefined;
  switch (row.op) {
    case 'eq':
    case 'neq':
    case 'contains':
      return has ? [] : [`${at}: op ${row.op} needs a value`];
    case 'in':
    case 'not_in':
      return Array.isArray(v) ? [] : [`${at}: op ${row.op} needs an array value`];
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string' ? [] : [`${at}: op ${row.op} needs a number or string value`];
    case 'exists':
      return !has || typeof v === 'boolean' ? [] : [`${at}: op exists takes true, false or no value`];
    case 'starts_with':
      return typeof v === 'string' ? [] : [`${at}: op starts_with needs a string value`];
  }
}

function requirementProblems(req: Requirement, at: string): string[] {
  const problems: string[] = [];
  if (req.type === 'enum' && !req.allowed_values?.length) problems.push(`${at}: type enum needs allowed_values`);
  if (req.min !== undefined && req.max !== undefined && req.min > req.max) problems.push(`${at}: min is greater than max`);
  return problems;
}

function appliesToProblems(a: AppliesTo): string[] {
  const problems: string[] = [];
  for (const key of ['actions', 'resources'] as const) {
    const globs = a[key];
    if (globs && new Set(globs).size !== globs.length) problems.push(`applies_to.${key}: duplicate globs`);
  }
  return problems;
}

/** `{}` and absent mean the same (every operation), so both are stored as null. */
export function normalizeAppliesTo(a: AppliesTo | undefined): AppliesTo | null {
  if (!a || (!a.actions && !a.resources)) return null;
  return { ...(a.actions ? { actions: a.actions } : {}), ...(a.resources ? { resources: a.resources } : {}) };
}
