// A rule body (what a client writes: optional fields may be absent) to the rule's machine-readable
// content with every default filled in (what a rule version stores and the engine evaluates). The
// registry stores this, the simulation builds its proposed rules with it, and `arbiter rules` compares
// a file with the registry through it, so "absent" means the same thing everywhere.
import { approvalFields, type ApprovalFields } from './approval-terms';
import type { Condition, EngineRule, Requirement, Scope, Severity } from './types';
import { limitSpec, priorSpec, type LimitSpec, type PriorSpec } from './window-rules';

/** The members of a rule body this reads; the element types are the caller's own. */
export interface RuleBodyFields<S extends string, C extends { field: string; op: string; value?: unknown }, R> {
  directive: string;
  severity: S;
  verdict?: string | null;
  applies_to?: { actions?: readonly string[] | null; resources?: readonly string[] | null } | null;
  conditions?: readonly C[] | null;
  condition_mode?: 'all' | 'any' | null;
  requires?: readonly R[] | null;
  deciders?: readonly string[] | null;
  priority?: number | null;
  mode?: 'enforce' | 'shadow' | null;
  approvals_required?: number | null;
  escalate_after?: number | null;
  escalation_deciders?: readonly string[] | null;
  approval_expires_after?: number | null;
  limit?: { count?: true | null; sum?: string | null; max: number; window: string; by?: readonly string[] | null } | null;
  requires_prior?: { action: string; within: string; same?: readonly string[] | null } | null;
}

export interface RuleContentOf<S extends string, C, R> extends ApprovalFields {
  directive: string;
  severity: S;
  verdict: string | null;
  applies_to: { actions?: string[]; resources?: string[] } | null;
  conditions: C[];
  condition_mode: 'all' | 'any';
  requires: R[];
  deciders: string[];
  priority: number | null;
  mode: 'enforce' | 'shadow';
  limit: LimitSpec | null;
  requires_prior: PriorSpec | null;
}

/** `{}`, `{actions: null}` and absent all mean "every operation": null. */
export function normaliseAppliesTo(
  a: RuleBodyFields<string, never, never>['applies_to'],
): { actions?: string[]; resources?: string[] } | null {
  if (!a || (!a.actions && !a.resources)) return null;
  return { ...(a.actions ? { actions: [...a.actions] } : {}), ...(a.resources ? { resources: [...a.resources] } : {}) };
}

/**
 * The defaults: no verdict string, every operation, no conditions (`all`), no requirements, no
 * deciders (each listed once), no priority, `enforce`, no approval fields (approval-terms.ts), no
 * limit and no requires_prior (null; `by` and `same` default to empty lists). A condition row without
 * `value` keeps none.
 */
export function ruleContent<S extends string, C extends { field: string; op: string; value?: unknown }, R>(
  body: RuleBodyFields<S, C, R>,
): RuleContentOf<S, C, R> {
  return {
    directive: body.directive,
    severity: body.severity,
    verdict: body.verdict ?? null,
    applies_to: normaliseAppliesTo(body.applies_to),
    conditions: (body.conditions ?? []).map(
      (c) => (c.value === undefined ? { field: c.field, op: c.op } : { field: c.field, op: c.op, value: c.value }) as C,
    ),
    condition_mode: body.condition_mode ?? 'all',
    requires: [...(body.requires ?? [])],
    deciders: [...new Set(body.deciders ?? [])],
    priority: body.priority ?? null,
    mode: body.mode ?? 'enforce',
    ...approvalFields(body),
    limit: body.limit ? limitSpec(body.limit) : null,
    requires_prior: body.requires_prior ? priorSpec(body.requires_prior) : null,
  };
}

/** Where a rule's content stands: its ids, its scope's selector and its version's creation time. */
export interface RulePlacement {
  rule_id: string;
  rule_version_id: string;
  selector: Scope;
  version_created_at: string;
}

/**
 * A rule's content as the engine evaluates it: its scope's selector, its directive as the statement.
 * Content without the limit and requires_prior members (written before they existed) has neither.
 */
export function engineRule(
  content: Omit<RuleContentOf<Severity, Condition, Requirement>, 'limit' | 'requires_prior'> & {
    limit?: LimitSpec | null;
    requires_prior?: PriorSpec | null;
  },
  at: RulePlacement,
): EngineRule {
  return {
    rule_id: at.rule_id,
    rule_version_id: at.rule_version_id,
    selector: at.selector,
    severity: content.severity,
    verdict: content.verdict,
    applies_to: content.applies_to,
    conditions: content.conditions,
    condition_mode: content.condition_mode,
    requires: content.requires,
    deciders: content.deciders,
    priority: content.priority,
    version_created_at: at.version_created_at,
    statement: content.directive,
    mode: content.mode,
    limit: content.limit ?? null,
    requires_prior: content.requires_prior ?? null,
  };
}
