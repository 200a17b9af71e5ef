// Public types of the rule engine. Inputs mirror the registry's JSON (snake_case, docs/verdicts.md);
// outputs use the field names of the verdict contract (docs/verdicts.md "Contract") so the service can pass them through.
import type { LimitSpec, PriorSpec } from './window-rules';

/** Rule severities in precedence rank order (docs/verdicts.md). */
export type Severity = 'MANDATORY' | 'REQUIRES_APPROVAL' | 'ADVISORY' | 'ALLOW';

/** How a severity is written in a precedence trace (docs/verdicts.md). */
export type TraceSeverity = 'block' | 'approval' | 'observe' | 'allow';

/** Quality of the match between a rule's scope selector and the request scope. */
export type ScopeMatch = 'exact' | 'partial' | 'tenant';

/** Why a candidate rule did or did not contribute (docs/verdicts.md). */
export type TraceReason = 'fires' | 'condition_false' | 'not_applicable' | 'missing_context' | 'overridden';

/**
 * The precedence key that put the dominating rule above the runner-up (the next firing rule).
 * `rule_version_id` is the final, purely deterministic tie-break: it decides only when two firing
 * rules share severity, verdict, scope match, priority and version timestamp.
 */
export type DecidedBy = 'severity' | 'verdict' | 'scope_match' | 'priority' | 'recency' | 'rule_version_id' | 'only_candidate';

export type ConditionOp = 'eq' | 'neq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'contains' | 'starts_with';

/** One condition row of a rule (docs/verdicts.md): `field` is a dot path into the evaluation context. */
export interface Condition {
  field: string;
  op: ConditionOp;
  /** Compared value; an array for in/not_in; for exists, a boolean (default true). */
  value?: unknown;
}

/** docs/verdicts.md "Requirement": what a rule needs of a field's value and provenance. */
export interface Requirement {
  field: string;
  reason?: string;
  /** string, number, integer, boolean, date, date-time, enum, array, object, any; others are hints only. */
  type: string;
  allowed_values?: readonly unknown[];
  min?: number;
  max?: number;
  /** e.g. date, date-time, iso-country, iso-currency, uuid, email; unknown formats are hints only. */
  format?: string;
  /** `verified`: the Fact must carry verification_status verified. */
  source_requirement?: 'verified' | 'unverified';
  acceptable_sources?: readonly string[];
  confidence_threshold?: number;
}

/** Scope field values are JSON scalars (tenant scope_schema). */
export type ScopeValue = string | number | boolean;
export type Scope = Readonly<Record<string, ScopeValue>>;

/** One current rule version, as the snapshot mapper hands it to the engine. */
export interface EngineRule {
  rule_id: string;
  rule_version_id: string;
  /** Scope fields the request must carry with the same values; empty = tenant-wide. */
  selector: Scope;
  severity: Severity;
  /** Tenant-defined verdict string returned instead of the one implied by severity. */
  verdict?: string | null;
  /** Globs (`*` any run of characters, `?` one character); absent or empty list = all. */
  applies_to?: { actions?: readonly string[] | null; resources?: readonly string[] | null } | null;
  conditions?: readonly Condition[];
  condition_mode?: 'all' | 'any';
  requires?: readonly Requirement[];
  /** Principal and role ids that may decide approvals this rule triggers (docs/approvals.md). */
  deciders?: readonly string[];
  priority?: number | null;
  /** ISO 8601 creation time of this version: the recency tie-break. */
  version_created_at: string;
  /** The rule's directive text; used as the reason of an approval trigger. */
  statement?: string;
  /**
   * `enforce` (default) decides; `shadow` never does: it is evaluated beside the enforced rules and
   * only reported in `CompleteEvaluation.shadow` (docs/verdicts.md "Shadow rules").
   */
  mode?: 'enforce' | 'shadow';
  /** A budget or rate over a sliding window (docs/verdicts.md "Budgets, rates and sequences"); null or absent: none. */
  limit?: LimitSpec | null;
  /** An earlier operation this one needs (docs/verdicts.md "Budgets, rates and sequences"); null or absent: none. */
  requires_prior?: PriorSpec | null;
}

/** An override (docs/verdicts.md "Overrides") or approval grant (docs/approvals.md "Grants") that neutralises rules. */
export interface EngineOverride {
  id: string;
  target_rule_ids: readonly string[];
  /** Matches when the request scope contains every field with the same value; empty = every scope. */
  applies_to_scope: Scope;
  /** ISO 8601; the override has no effect from this instant on. null = no expiry. */
  expires_at: string | null;
  /** temporary, conditional, permanent, approval_grant: recorded; `conditions` decides, not the type. */
  type: string;
  /**
   * A CEL expression over the evaluation context (docs/verdicts.md "Overrides"): the override neutralises only
   * operations for which it is true. Absent or null: no condition. A `conditional` override without
   * one, or one that does not compile, never applies (fail closed).
   */
  conditions?: string | null;
  /** ISO 8601; the override has no effect before this instant. */
  created_at?: string | null;
  /**
   * An approval grant's rule versions (docs/approvals.md "Grants"): a target whose current version is not
   * one of them (the rule changed since the grant) is not neutralised. Absent, null or empty: any version.
   */
  target_rule_version_ids?: readonly string[] | null;
}

/** Catalogue entry of a known context field (tenant settings context_schema, docs/verdicts.md). */
export interface ContextFieldSchema {
  type?: string;
  allowed_values?: readonly unknown[];
  format?: string;
}

/** The tenant settings the engine reads. */
export interface TenantPolicy {
  /** Verdict when no rule fires; default `allowed`. */
  default_verdict?: string | null;
  /** Describes context fields; fills `type` in required_context when no rule says. Not enforced here. */
  context_schema?: { fields?: Readonly<Record<string, ContextFieldSchema>> } | null;
}

/** docs/verdicts.md "Fact". A `value` of null is a known answer: "this field has no value". */
export interface Fact {
  value: unknown;
  source: string;
  verification_status?: 'unverified' | 'verified';
  confidence?: number;
  as_of?: string;
  /**
   * The stream of the ledger fact a verified citation read the value from: set by the gateway with
   * `source: "ledger"` (never taken from a request), read by `ledger:<stream glob>` in acceptable_sources.
   */
  ledger_stream?: string;
}

export type EvaluationMode = 'check' | 'resolve';

/**
 * One evaluation. check reads `context` Facts first, then `parameters` by dot path; resolve reads the
 * accumulated `context` Facts only. `action`, `resource` and `scope.<field>` always come from the
 * request itself and cannot be supplied as Facts.
 */
export interface EvaluationRequest {
  mode: EvaluationMode;
  action: string;
  resource: string;
  scope: Scope;
  parameters?: Readonly<Record<string, unknown>> | null;
  context?: Readonly<Record<string, Fact>> | null;
  /** The calling principal's id: the `principal` key path of a limit or requires_prior (absent: null). */
  principal?: string | null;
  /** The principal the caller acts for, as the request claims it: the `on_behalf_of` key path (absent: null). */
  on_behalf_of?: string | null;
  /**
   * What a key path's value becomes in a window key (absent: the value itself). The gateway keys a sensitive value
   * by a digest (docs/verdicts.md "Sensitive fields"), so no window key holds it.
   */
  windowKeyValue?: (path: string, value: unknown) => unknown;
}

/** Why a field counts as missing for a rule (first failing check, in this order). */
export type MissingProblem =
  | 'absent'
  | 'not_verified'
  | 'source_not_accepted'
  | 'confidence_below_threshold'
  | 'wrong_type'
  | 'value_not_allowed'
  | 'below_min'
  | 'above_max'
  | 'bad_format';

/**
 * A Requirement as the engine reports it (check 422 details, resolve required_context): one entry per
 * field, merged over every rule that needs it (the strictest bound of each kind), plus which rules
 * asked and what was wrong. `rule_ids` and `problems` are additions to the Requirement (docs/verdicts.md "Requirement").
 */
export interface MissingField extends Requirement {
  reason: string;
  rule_ids: string[];
  problems: MissingProblem[];
}

/**
 * Where a rule that remembers stood once its conditions fired (docs/verdicts.md "Budgets, rates and
 * sequences"): its window had room (`within`, the rule does not fire) or not (`exceeded`, it fires); the
 * earlier operation was found (`prior_found`, it does not fire) or not (`prior_missing`, it fires); the
 * window store could not be read or written (`limit_unavailable`, it fires: fail closed).
 */
export type LimitTraceState = 'within' | 'exceeded' | 'prior_found' | 'prior_missing' | 'limit_unavailable';

export interface TraceEntry {
  rule_id: string;
  rule_version_id: string;
  severity: TraceSeverity;
  scope_match: ScopeMatch;
  reason: TraceReason;
  /** Only on the dominating entry. */
  decided_by?: DecidedBy;
  /** Only on a rule with limit or requires_prior whose conditions fired. */
  limit_state?: LimitTraceState;
  /** With reason missing_context: the fields that were absent or fell short of a Requirement. */
  missing_fields?: string[];
  /** With reason overridden: the override that neutralised the rule. */
  overridden_by?: string;
  /** Overrides of the rule whose conditions kept them from applying, and why (fail closed). */
  overrides_not_applied?: OverrideMiss[];
}

/**
 * Why an override did not neutralise its target for this operation: its conditions (a conditional
 * override), or the rule changed since the approval grant was made for another version of it.
 */
export type OverrideMissReason =
  'override_condition_false' | 'override_condition_missing' | 'override_condition_error' | 'override_rule_changed';

/** Members in RFC 8785 order (the record is serialised without sorting). */
export interface OverrideMiss {
  /** override_condition_error: what went wrong (evaluation error, non-boolean result, invalid expression). */
  error?: string;
  /** override_condition_missing: the context fields the conditions read that the operation lacks. */
  missing_fields?: string[];
  override_id: string;
  reason: OverrideMissReason;
}

/** An entry of `triggers` (docs/verdicts.md "Approval"). */
export interface Trigger {
  rule_id: string;
  rule_version_id: string;
  reason: string;
}

/**
 * A shadow rule that fired, would have outranked the dominating rule (or the tenant default) and
 * would have given another verdict (docs/verdicts.md "Shadow rules"). Members in RFC 8785 order.
 */
export interface ShadowEntry {
  rule_id: string;
  rule_version_id: string;
  /** The shadow rule's verdict: what the answer would have been with the rule enforced. */
  would_be: string;
}

export interface CompleteEvaluation {
  status: 'complete';
  verdict: string;
  /** null when no rule fired and the tenant default applied. */
  dominating_rule_id: string | null;
  dominating_rule_version_id: string | null;
  /** Rules the decision rested on: those that fired and those an override neutralised, in trace order. */
  cited_rule_ids: string[];
  cited_rule_version_ids: string[];
  /** Every candidate, in precedence order. */
  precedence_trace: TraceEntry[];
  /** For approval_required: the approval-requiring rules that fired. Empty otherwise. */
  triggers: Trigger[];
  /** Union of the triggers' deciders, first appearance first. */
  candidate_deciders: string[];
  resolved_target_ids: string[];
  /** Overrides that neutralised a candidate. */
  applied_override_ids: string[];
  /** Shadow rules that disagree with this verdict, in precedence order; empty when none does. */
  shadow: ShadowEntry[];
}

/** check only: a candidate needs fields the request lacks (the service answers 422 insufficient_context). */
export interface InsufficientContext {
  status: 'insufficient_context';
  missing_fields: MissingField[];
  precedence_trace: TraceEntry[];
}

/** resolve only: fields that can still change the verdict are missing. */
export interface IncompleteEvaluation {
  status: 'incomplete';
  required_context: MissingField[];
  /** Each supplied context field and its value (lets the caller spot misspelt names). */
  provisional_context: Record<string, unknown>;
  precedence_trace: TraceEntry[];
}

export type EvaluationResult = CompleteEvaluation | InsufficientContext | IncompleteEvaluation;
