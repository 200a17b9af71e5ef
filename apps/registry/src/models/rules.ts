import type { AuthorFields, AuthorType, ServerFields } from './common';

/** docs/verdicts.md, in precedence order: blocked, approval_required, observe, allowed. */
export type Severity = 'MANDATORY' | 'REQUIRES_APPROVAL' | 'ADVISORY' | 'ALLOW';

export type ConditionOp = 'eq' | 'neq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'contains' | 'starts_with';

/**
 * Dot path into the evaluation context (`transfer.amount`, `scope.region`, `action`, `resource`).
 * @pattern ^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$
 * @maxLength 200
 */
export type FieldPath = string;

/** @minLength 1 @maxLength 500 */
export type Glob = string;

/**
 * Which operations a rule is about; `*` matches any run of characters, `?` one character.
 * A missing list matches everything; a rule without `applies_to` applies to every operation.
 */
export interface AppliesTo {
  /** @minItems 1 @maxItems 100 */
  actions?: Glob[];
  /** @minItems 1 @maxItems 100 */
  resources?: Glob[];
}

/**
 * One condition row (docs/verdicts.md). `value` by op: `in`/`not_in` an array; `gt`..`lte` a
 * number or a string (ISO dates compare as strings); `exists` true/false (default true);
 * `starts_with` a string; `contains` a string (substring) or any JSON value (array element).
 */
export interface ConditionRow {
  field: FieldPath;
  op: ConditionOp;
  value?: unknown;
}

export type RequirementType = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'date' | 'datetime' | 'object' | 'array';

/** A context field the rule needs (docs/verdicts.md "Requirement"), beyond those its conditions name. */
export interface Requirement {
  field: FieldPath;
  /** Human-readable justification; the verdict gateway cites the rule when absent. @maxLength 1000 */
  reason?: string;
  type: RequirementType;
  /** Required for type enum. @minItems 1 @maxItems 1000 */
  allowed_values?: Array<string | number | boolean>;
  min?: number;
  max?: number;
  /** Format hint, e.g. `iso-date`, `iso-country`. @maxLength 100 */
  format?: string;
  /** `verified` when the fact must carry verification_status verified. */
  source_requirement?: 'verified' | 'unverified';
  /**
   * Sources a Fact may name, compared as written; `ledger` accepts a Fact verified against a ledger fact of
   * the tenant, `ledger:<stream glob>` (e.g. `ledger:kyc-*`) only one of a stream the glob matches. The services'
   * audit streams (`arbiter.…`) count only for a glob that begins with `arbiter.`.
   * @minItems 1 @maxItems 100
   */
  acceptable_sources?: string[];
  /** @minimum 0 @maximum 1 */
  confidence_threshold?: number;
}

/**
 * Principal id (`agn-`, `hum-`) or role id (`role-<name>`).
 * @pattern ^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$
 * @example "role-cfo"
 */
export type DeciderId = string;

/**
 * `enforce`: the rule decides. `shadow`: the verdict gateway evaluates it beside the enforced rules and
 * reports where it would have decided otherwise, but it never decides (docs/verdicts.md "Shadow rules").
 */
export type RuleMode = 'enforce' | 'shadow';

/**
 * A budget or rate over a sliding window, as a rule body writes it (docs/registry.md "Budgets, rates and
 * sequences"): exactly one of `count` and `sum`. Checked on every write beyond this shape (400 naming the
 * field, e.g. `limit.window: ...`).
 */
export interface RuleLimitBody {
  /** `true`: count the operations (each weighs 1). */
  count?: true | null;
  /** `parameters.<field>`: add up that parameter of each operation (a number of at least 0). */
  sum?: string | null;
  /** The most the window may hold (inclusive): above 0 and at most 1e15; an integer when counting. */
  max: number;
  /** A duration from 1s to 366d: a positive integer and a unit, s, m, h or d (`90s`, `15m`, `1h`, `24h`, `7d`). */
  window: string;
  /**
   * One window per value of these paths: `principal`, `on_behalf_of`, `resource`, `parameters.<field>`;
   * at most 5, each once. Absent or empty: one window for the whole rule.
   */
  by?: string[] | null;
}

/** A rule version's `limit` as stored and answered: `count` or `sum`, and `by` always present. */
export interface RuleLimit {
  count?: true;
  sum?: string;
  max: number;
  window: string;
  by: string[];
}

/**
 * An earlier operation a rule needs, as a rule body writes it (docs/registry.md "Budgets, rates and
 * sequences"). Checked on every write beyond this shape (400 naming the field).
 */
export interface RequiresPriorBody {
  /** The exact action of the earlier operation (1 to 200 characters). */
  action: string;
  /** How long ago it may have happened: a duration as `limit.window` writes it. */
  within: string;
  /** The paths on which it must match this operation, written as `limit.by`; absent or empty: any. */
  same?: string[] | null;
}

/** A rule version's `requires_prior` as stored and answered: `same` always present. */
export interface RequiresPrior {
  action: string;
  within: string;
  same: string[];
}

/** POST and PUT body of a rule. PUT replaces the rule's content: omitted optional fields take their defaults. */
export interface RuleBody extends AuthorFields {
  /** @minLength 1 @maxLength 20000 */
  directive: string;
  severity: Severity;
  /**
   * Tenant-defined verdict returned instead of the one implied by severity. A MANDATORY or REQUIRES_APPROVAL
   * rule cannot answer `allowed` or `observe` (400).
   * @pattern ^[a-z][a-z0-9_]{0,63}$
   */
  verdict?: string;
  applies_to?: AppliesTo;
  /** @maxItems 100 */
  conditions?: ConditionRow[];
  /** `all` (default): every row must hold; `any`: one is enough. */
  condition_mode?: 'all' | 'any';
  /** @maxItems 100 */
  requires?: Requirement[];
  /** @maxItems 100 */
  deciders?: DeciderId[];
  /**
   * Tie-break among firing rules of equal severity and scope match (higher wins).
   * @isInt @minimum -1000000 @maximum 1000000
   */
  priority?: number;
  /** `enforce` (default) or `shadow`; a PUT with `enforce` promotes a shadow rule (a new version). */
  mode?: RuleMode;
  /**
   * REQUIRES_APPROVAL only (docs/approvals.md "Quorum, escalation and expiry"): how many distinct
   * deciders must approve (default 1). The requester never counts; one rejection rejects.
   * @isInt @minimum 1 @maximum 20
   */
  approvals_required?: number | null;
  /**
   * REQUIRES_APPROVAL only, with `escalation_deciders`: seconds after the request from which the
   * escalation deciders may decide too; less than `approval_expires_after` when the rule sets it.
   * @isInt @minimum 60 @maximum 31536000
   */
  escalate_after?: number | null;
  /**
   * REQUIRES_APPROVAL only, with `escalate_after`: principal and `role-` ids who may decide from then on.
   * @maxItems 100
   */
  escalation_deciders?: DeciderId[] | null;
  /**
   * REQUIRES_APPROVAL only: seconds after the request at which a pending approval expires (default
   * APPROVAL_TTL_SECONDS).
   * @isInt @minimum 60 @maximum 31536000
   */
  approval_expires_after?: number | null;
  /**
   * A budget or rate (docs/registry.md "Budgets, rates and sequences"): the rule fires when this operation
   * would take its window past `max`. Severity MANDATORY, REQUIRES_APPROVAL or ADVISORY only; not with
   * `requires_prior`.
   */
  limit?: RuleLimitBody | null;
  /**
   * A sequence (docs/registry.md "Budgets, rates and sequences"): the rule fires unless an earlier allowed
   * operation of `action`, matching on `same`, happened `within` the period. Severity as for `limit`; not
   * with `limit`.
   */
  requires_prior?: RequiresPriorBody | null;
}

/** The machine-readable fields every rule version has (the tenant state carries them all: models/state.ts). */
export interface RuleCoreContent {
  directive: string;
  severity: Severity;
  verdict: string | null;
  applies_to: AppliesTo | null;
  conditions: ConditionRow[];
  condition_mode: 'all' | 'any';
  requires: Requirement[];
  deciders: string[];
  priority: number | null;
  mode: RuleMode;
  /** null: not set (1). */
  approvals_required: number | null;
  /** null: no escalation. */
  escalate_after: number | null;
  /** Empty when the rule does not escalate. */
  escalation_deciders: string[];
  /** null: APPROVAL_TTL_SECONDS. */
  approval_expires_after: number | null;
}

/** The machine-readable content of a rule version: what the verdict gateway evaluates (models/state.ts). */
export interface RuleMachineContent extends RuleCoreContent {
  /** null: the rule keeps no budget. */
  limit: RuleLimit | null;
  /** null: the rule needs no earlier operation. */
  requires_prior: RequiresPrior | null;
}

/** The content of a rule version: its machine-readable part and who wrote it. */
export interface RuleContent extends RuleMachineContent {
  author: string;
  author_type: AuthorType;
}

/** A rule with the content of its current version. */
export interface Rule extends ServerFields, RuleContent {
  /** `rul-` prefix */
  id: string;
  scope_id: string;
  status: 'active' | 'archived';
  /** `rv-` id of the current version. */
  current_version_id: string;
  archived_at: string | null;
}

/** An immutable snapshot of a rule; `updated_at` always equals `created_at`. */
export interface RuleVersion extends ServerFields, RuleContent {
  /** `rv-` prefix */
  id: string;
  rule_id: string;
  scope_id: string;
  /** `current` for the rule's latest version, `superseded` for earlier ones. */
  status: 'current' | 'superseded';
}

/** How often one version of a rule disagreed with the verdict while in shadow mode. */
export interface ShadowVersionReport {
  /** `rv-` */
  rule_version_id: string;
  /** Consultations whose record names this version in `shadow`. */
  disagreements: number;
  /** When the latest of them was requested (ISO 8601). */
  last_at: string;
}

/**
 * GET /api/v1/rules/{rule_id}/shadow (docs/verdicts.md "Shadow rules"): the consultations in which the
 * rule, while in shadow mode, would have outranked the dominating rule with another verdict.
 */
export interface RuleShadowReport {
  /** `rul-` */
  rule_id: string;
  /** The mode of the rule's current version. */
  mode: RuleMode;
  /** The sum over `by_version`. */
  disagreements: number;
  /** Versions with at least one disagreement, oldest version first. */
  by_version: ShadowVersionReport[];
}
