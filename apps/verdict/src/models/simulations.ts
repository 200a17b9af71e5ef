// The simulation (POST /<tenant_id>/v1/simulations, docs/verdicts.md "Simulation"): the request body and
// the answer, as tsoa publishes them. The body is parsed by domain/simulation-request.ts against the schemas
// tsoa writes from these types (openapi.json), so the document and the validation cannot drift apart.

/** A scope value: flat strings, numbers or booleans. */
export type SimulatedScopeValue = string | number | boolean;

/** Scope fields, e.g. `{"region": "eu"}`: an override covers operations whose scope contains every one. */
export interface SimulatedScopeSelector {
  [field: string]: SimulatedScopeValue;
}

export type SimulatedSeverity = 'MANDATORY' | 'REQUIRES_APPROVAL' | 'ADVISORY' | 'ALLOW';

export type SimulatedConditionOp = 'eq' | 'neq' | 'in' | 'not_in' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'contains' | 'starts_with';

/**
 * Dot path into the evaluation context (`transfer.amount`, `scope.region`, `action`, `resource`).
 * @pattern ^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$
 * @maxLength 200
 */
export type SimulatedFieldPath = string;

/** @minLength 1 @maxLength 500 */
export type SimulatedGlob = string;

/** Which operations a rule is about (the registry's `applies_to`). */
export interface SimulatedAppliesTo {
  /** @minItems 1 @maxItems 100 */
  actions?: SimulatedGlob[];
  /** @minItems 1 @maxItems 100 */
  resources?: SimulatedGlob[];
}

/** One condition row, as the registry's rule body writes it (docs/verdicts.md "Condition ops"). */
export interface SimulatedConditionRow {
  field: SimulatedFieldPath;
  op: SimulatedConditionOp;
  value?: unknown;
}

export type SimulatedRequirementType = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'date' | 'datetime' | 'object' | 'array';

/** A Requirement (docs/verdicts.md "Requirement"), as the registry's rule body writes it. */
export interface SimulatedRequirement {
  field: SimulatedFieldPath;
  /** @maxLength 1000 */
  reason?: string;
  type: SimulatedRequirementType;
  /** @minItems 1 @maxItems 1000 */
  allowed_values?: Array<string | number | boolean>;
  min?: number;
  max?: number;
  /** @maxLength 100 */
  format?: string;
  source_requirement?: 'verified' | 'unverified';
  /** @minItems 1 @maxItems 100 */
  acceptable_sources?: string[];
  /** @minimum 0 @maximum 1 */
  confidence_threshold?: number;
}

/**
 * Principal id (`agn-`, `hum-`) or role id (`role-<name>`).
 * @pattern ^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$
 */
export type SimulatedDeciderId = string;

/** The registry's `limit` of a rule body (docs/verdicts.md "Rule format"), checked as the registry checks it. */
export interface SimulatedLimit {
  /** `true`: count the operations. */
  count?: true | null;
  /** `parameters.<field>`: add up that parameter. */
  sum?: string | null;
  max: number;
  /** A duration from 1s to 366d (`90s`, `15m`, `1h`, `7d`). */
  window: string;
  /** Key paths: `principal`, `on_behalf_of`, `resource`, `parameters.<field>`. */
  by?: string[] | null;
}

/** The registry's `requires_prior` of a rule body, checked as the registry checks it. */
export interface SimulatedRequiresPrior {
  action: string;
  /** A duration from 1s to 366d. */
  within: string;
  /** Paths written as in `limit.by`. */
  same?: string[] | null;
}

/**
 * The registry's rule body (POST and PUT of `/api/v1/scopes/<scope_id>/rules`, PUT semantics: omitted
 * optional fields take their defaults), checked as the registry checks it.
 */
export interface SimulatedRuleBody {
  /** @minLength 1 @maxLength 20000 */
  directive: string;
  severity: SimulatedSeverity;
  /** @pattern ^[a-z][a-z0-9_]{0,63}$ */
  verdict?: string;
  applies_to?: SimulatedAppliesTo;
  /** @maxItems 100 */
  conditions?: SimulatedConditionRow[];
  condition_mode?: 'all' | 'any';
  /** @maxItems 100 */
  requires?: SimulatedRequirement[];
  /** @maxItems 100 */
  deciders?: SimulatedDeciderId[];
  /** @isInt @minimum -1000000 @maximum 1000000 */
  priority?: number;
  /** `shadow`: evaluated but never decides, so it changes no verdict of the simulation. Default `enforce`. */
  mode?: 'enforce' | 'shadow';
  /**
   * Approval fields (docs/approvals.md "Quorum, escalation and expiry"), checked as the registry checks
   * them; they play no part in a verdict.
   * @isInt @minimum 1 @maximum 20
   */
  approvals_required?: number | null;
  /** @isInt @minimum 60 @maximum 31536000 */
  escalate_after?: number | null;
  /** @maxItems 100 */
  escalation_deciders?: SimulatedDeciderId[] | null;
  /** @isInt @minimum 60 @maximum 31536000 */
  approval_expires_after?: number | null;
  /** A budget or rate over a sliding window (docs/verdicts.md "Rule format"); not with `requires_prior`. */
  limit?: SimulatedLimit | null;
  /** An earlier operation the rule needs (docs/verdicts.md "Rule format"); not with `limit`. */
  requires_prior?: SimulatedRequiresPrior | null;
  /** Accepted as the registry does; it plays no part in a verdict. @minLength 1 @maxLength 200 */
  author?: string;
  author_type?: 'human' | 'agent' | 'system';
}

/** A rule to create: the registry's rule body plus the scope it would be created in. */
export interface SimulatedNewRule extends SimulatedRuleBody {
  /** A scope of the tenant (`scp-`): the rule's selector is the scope's. */
  scope_id: string;
}

/** An override to create, as the registry would store it (docs/verdicts.md "Overrides"). */
export interface SimulatedOverrideBody {
  /**
   * Active rules of the tenant (`rul-`) it neutralises.
   * @minItems 1 @maxItems 100
   */
  target_ids: string[];
  /** `temporary` needs expires_at, `conditional` needs conditions; `permanent` lasts until revoked. */
  type: 'temporary' | 'conditional' | 'permanent';
  /** Operations whose scope contains these fields; absent or null: the selector of the first target's scope. */
  applies_to_scope?: SimulatedScopeSelector | null;
  /** ISO 8601 timestamp; the override has no effect from then on. Absent or null: no expiry. */
  expires_at?: string | null;
  /** A CEL expression over the operation's context; the override applies only where it is true. @maxLength 20000 */
  conditions?: string | null;
}

/**
 * One proposed change: `op` and exactly one subject. `create` takes `rule` or `override`; `update`
 * takes `rule_id` and `rule` (the whole new content); `archive` takes `rule_id` or `override_id`.
 */
export interface SimulationChange {
  op: 'create' | 'update' | 'archive';
  /** create: a new rule with its scope_id; update: the rule's whole new content (without scope_id). */
  rule?: SimulatedNewRule | SimulatedRuleBody;
  /** update, archive: an active rule of the tenant. */
  rule_id?: string;
  /** create: a new override. */
  override?: SimulatedOverrideBody;
  /** archive: an override in effect. */
  override_id?: string;
}

/** Which stored consultations are replayed. */
export interface SimulationWindow {
  /** ISO 8601 date or timestamp, inclusive; default `until` minus 7 days. */
  since?: string;
  /** ISO 8601 date or timestamp, inclusive (a date covers its whole UTC day); default now. */
  until?: string;
  /**
   * At most this many consultations, the newest of the window.
   * @isInt
   * @minimum 1
   * @maximum 1000000
   */
  last?: number;
}

export interface SimulationRequest {
  /** @maxItems 100 */
  changes: SimulationChange[];
  window?: SimulationWindow;
  /**
   * How many changed consultations to list in `samples` (the newest), default 20.
   * @isInt
   * @minimum 0
   * @maximum 100
   */
  sample_limit?: number;
}

/** A changed consultation. A verdict is the engine's, or `insufficient_context` when the replay lacked a field a rule needs. */
export interface SimulationSample {
  consultation_id: string;
  /** ISO 8601, as recorded. */
  requested_at: string;
  action: string;
  resource: string;
  before: string;
  after: string;
  /** null: no rule decided (tenant default, or insufficient_context). A rule the simulation creates is named `changes[<i>]`. */
  dominating_rule_before: string | null;
  dominating_rule_after: string | null;
}

/** The window that was replayed, bounds resolved. */
export interface SimulatedWindow {
  since: string;
  until: string;
  last: number | null;
}

export interface SimulationResult {
  /** Consultations replayed. */
  evaluated: number;
  /** Of those, how many got another verdict after the changes. */
  changed: number;
  /** `"<before>-><after>"`: how many consultations moved that way; changed pairs only. */
  transitions: { [transition: string]: number };
  /** The first `sample_limit` changed consultations, newest first. */
  samples: SimulationSample[];
  window: SimulatedWindow;
  /** The instant every replay was evaluated at (override expiry and time-bound rows read it). */
  evaluated_at: string;
}
