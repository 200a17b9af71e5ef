// Request and response shapes of check and resolve (docs/verdicts.md "Contract"); tsoa validates requests and
// writes them into openapi.json.
import type {
  ApprovalTrigger,
  ConsultationRecord,
  Explanation,
  LimitRecordEntry,
  PrecedenceTraceEntry,
  RequiredContextRound,
} from '../domain/consultation-record';

export type { ApprovalTrigger, Explanation, LimitRecordEntry, PrecedenceTraceEntry, RequiredContextRound };

/** A scope value (docs/verdicts.md): flat strings, numbers or booleans. */
export type ScopeValue = string | number | boolean;

/** Scope fields, e.g. `{"region": "eu", "env": "prod"}`; validated against the tenant scope_schema. */
export interface ScopeFields {
  [field: string]: ScopeValue;
}

/** docs/verdicts.md "Fact": the value of each entry of a context map. */
export interface Fact {
  /** Any JSON value; `null` is a real answer ("there is none"). Required. */
  value: unknown;
  /**
   * Caller-defined source identifier; bound into context_hash. `ledger:<fact_id>` cites a fact the
   * tenant sealed in the ledger: the gateway verifies it and the Fact then counts as verified, source
   * `ledger` (docs/verdicts.md "Facts the ledger vouches for"); `ledger` alone is refused.
   * @example "ledger:fct-5f0c9a1b2c3d4e5f60718293"
   */
  source: string;
  /** Default unverified; rules can require verified (source_requirement). A verified ledger citation is verified whatever this says. */
  verification_status?: 'unverified' | 'verified';
  /**
   * For probabilistic sources.
   * @minimum 0
   * @maximum 1
   */
  confidence?: number;
  /** When it was observed: an ISO 8601 date, or a date, `T` and a time (an offset optional), on a day the calendar has. */
  as_of?: string;
  /**
   * With a `ledger:<fact_id>` source only: the dot path of the value in the ledger fact's
   * custom_payload (array indexes as numbers). Default: the context field's own name.
   * @minLength 1
   * @maxLength 200
   * @example "kyc.beneficiary.country"
   */
  payload_path?: string;
}

/** A map from dot-path field names (e.g. `transfer.amount`) to Facts. */
export interface Context {
  [field: string]: Fact;
}

/** Opaque correlation identifiers: stored with the consultation, never interpreted. */
export interface Correlation {
  /** @maxLength 200 */
  conversation_id?: string;
  /** @maxLength 200 */
  agent_run_id?: string;
}

export interface CheckRequest {
  /**
   * The operation decided, e.g. `payments.transfer`.
   * @minLength 1
   * @maxLength 500
   */
  action: string;
  /**
   * The resource acted on, e.g. `acct:eu/4471`.
   * @minLength 1
   * @maxLength 2000
   */
  resource: string;
  scope: ScopeFields;
  /**
   * Every field becomes part of the signed bindings; rule conditions read them by dot path, so no member name,
   * at any depth, may contain a dot (400 validation_failed naming it).
   */
  parameters?: { [field: string]: unknown };
  /**
   * Human principal the agent acts for.
   * @minLength 1
   * @maxLength 200
   */
  on_behalf_of?: string;
  /** Optional Facts by dot path (docs/verdicts.md); a Fact wins over a parameter of the same path. */
  context?: Context;
  /**
   * `true`: a blocked or approval_required answer carries `explanation` (docs/verdicts.md
   * "Explanations"). Default false: the explanation costs a search the hot path does not need, and
   * GET /<tenant_id>/v1/consultations/<id>/explanation computes the same one later from the record.
   */
  explain?: boolean;
}

/** docs/verdicts.md "Requirement", plus `rule_ids` (which rules asked) and `problems` (what was wrong). */
export interface Requirement {
  field: string;
  reason: string;
  type: string;
  allowed_values?: unknown[];
  min?: number;
  max?: number;
  format?: string;
  source_requirement?: 'verified' | 'unverified';
  /** Sources accepted as written; `ledger` (any stream but the audit streams `arbiter.…`) and `ledger:<stream glob>` are met by a verified ledger citation. */
  acceptable_sources?: string[];
  confidence_threshold?: number;
  rule_ids?: string[];
  problems?: string[];
  /**
   * `accepted`: a Fact citing a ledger fact (`source: "ledger:<fact_id>"`) sealed by another principal
   * than the caller meets this Requirement's provenance constraint (source_requirement verified,
   * acceptable_sources listing `ledger`, or `ledger:<stream glob>` for a fact of a matching stream).
   * Absent when the rules ask no provenance, or one a citation does not meet.
   */
  ledger_citation?: 'accepted';
}

export interface ApprovalHint {
  /** Path of the approvals collection: `/<tenant_id>/v1/approvals`. */
  endpoint: string;
  example_body: { consultation_id: string; requester_notes: string };
}

/**
 * A complete verdict. Which fields are present depends on the verdict (docs/verdicts.md "check"): `allowed` (and
 * any other verdict, e.g. observe or a tenant-defined one) carries the whole
 * evidence; `blocked` adds only dominating_rule_id; `approval_required` adds approval.
 */
export interface CheckResponse {
  operation_status: 'complete';
  verdict: string;
  cited_rule_ids: string[];
  cited_rule_version_ids?: string[];
  dominating_rule_id?: string | null;
  precedence_trace?: PrecedenceTraceEntry[];
  resolved_target_ids?: string[];
  consultation_id: string;
  /** Compact JWS (ES256); verify it against the tenant JWKS (docs/verdicts.md). */
  signed_verdict: string;
  context_hash?: string;
  approval?: ApprovalHint;
  /**
   * The windows of the `limit` rules this consultation read, as its record keeps them (docs/verdicts.md
   * "Windows and outcomes"): every verdict. Absent when it read none.
   * @example [{"key": "{\"principal\":\"agn-5f0c9a1b2c3d4e5f60718293\"}", "max": 50, "rule_id": "rul-5f0c9a1b2c3d4e5f60718293", "used_after": 13, "used_before": 12, "window": "1h"}]
   */
  limits?: LimitRecordEntry[];
  /**
   * blocked and approval_required: the alternative minimal sets of parameter changes that would make the
   * operation allowed, rows no change can make false, and (approval_required) who can decide
   * (docs/verdicts.md "Explanations"). Only when the request said `"explain": true`; GET
   * /<tenant_id>/v1/consultations/<id>/explanation answers the same one later.
   * @example {"deciders": ["role-finance"], "not_invertible": [{"field": "memo", "op": "contains", "rule_id": "rul-5f0c9a1b2c3d4e5f60718293"}], "to_allow": [{"changes": [{"field": "amount", "op": "lte", "value": 10000}]}, {"changes": [{"field": "beneficiary.country", "op": "not_in", "value": ["CU", "IR"]}], "requirements": [{"field": "beneficiary.country", "rule_id": "rul-0a1b2c3d4e5f60718293a4b5", "source_requirement": "verified"}]}]}
   */
  explanation?: Explanation;
}

/** Resolve, detailed variant (POST /<tenant_id>/v1/resolve, docs/verdicts.md "resolve"). */
export interface ResolveRequest {
  /**
   * @minLength 1
   * @maxLength 500
   */
  action: string;
  /**
   * @minLength 1
   * @maxLength 2000
   */
  resource: string;
  /** Initial scope; scope fields arriving as context (`scope.<field>`, or a scope_schema field name) widen it. */
  scope: ScopeFields;
  /** Every field is validated on receipt (400 invalid_context_shape, unknown_scope_field). */
  context: Context;
  /**
   * @minLength 1
   * @maxLength 200
   */
  on_behalf_of?: string;
  /**
   * Returned by an incomplete answer: send it back to accumulate context across rounds.
   * @minLength 1
   * @maxLength 200
   */
  resolve_session_id?: string;
  correlation?: Correlation;
  /**
   * `true`: a blocked or approval_required answer carries `explanation` (docs/verdicts.md
   * "Explanations"). Default false: the explanation costs a search the hot path does not need, and
   * GET /<tenant_id>/v1/consultations/<id>/explanation computes the same one later from the record.
   */
  explain?: boolean;
}

/** Resolve, overview variant (docs/verdicts.md "resolve"): told apart by `action_type`. */
export interface OverviewResolveRequest {
  /**
   * Selects which rules apply (their applies_to.actions); 404 unknown_action_type when none names it.
   * @minLength 1
   * @maxLength 500
   */
  action_type: string;
  /** Facts; `resource` and scope fields may be supplied here as well. */
  context: Context;
  correlation?: Correlation;
  /**
   * @minLength 1
   * @maxLength 200
   */
  resolve_session_id?: string;
  /**
   * @minLength 1
   * @maxLength 200
   */
  on_behalf_of?: string;
  /**
   * `true`: a blocked or approval_required answer carries `explanation` (docs/verdicts.md
   * "Explanations"). Default false: the explanation costs a search the hot path does not need, and
   * GET /<tenant_id>/v1/consultations/<id>/explanation computes the same one later from the record.
   */
  explain?: boolean;
}

/** Either resolve body (the two variants share one path and are told apart by their fields). */
export type ResolveBody = ResolveRequest | OverviewResolveRequest;

/** Detailed resolve, incomplete: no consultation, no signature. */
export interface IncompleteResolveResponse {
  operation_status: 'incomplete';
  /** Send it back with the enriched context. */
  resolve_session_id: string;
  /** This round's number (1 for the first call). */
  round: number;
  /** Only what can still change the verdict. */
  required_context: Requirement[];
  /** Each accepted context field and its value (spot misspelt names here). */
  provisional_context: { [field: string]: unknown };
}

/** Detailed resolve, complete: the check response plus the rounds it took. */
export interface CompleteResolveResponse extends CheckResponse {
  required_context_history: RequiredContextRound[];
}

/** Who can decide an approval_required verdict (overview variant). */
export interface Approver {
  /** Principal and role ids allowed to decide. */
  candidate_deciders: string[];
  triggers: ApprovalTrigger[];
  /** Path of the approvals collection. */
  endpoint: string;
}

export interface OverviewIncompleteResponse {
  operation_status: 'incomplete';
  required_context: Requirement[];
  resolve_session_id: string;
}

export interface OverviewCompleteResponse {
  operation_status: 'complete';
  verdict: string;
  /** Rule ids (`rul-`) the verdict rests on. */
  cited_rules: string[];
  /** Their immutable versions (`rv-`), readable at /v1/rule-versions/<id>. */
  cited_rule_versions: string[];
  dominating_rule_id: string | null;
  consultation_id: string;
  normative_hash: string;
  approver?: Approver;
  /**
   * The windows of the `limit` rules this consultation read, as its record keeps them (docs/verdicts.md
   * "Windows and outcomes"): every verdict. Absent when it read none.
   * @example [{"key": "{\"principal\":\"agn-5f0c9a1b2c3d4e5f60718293\"}", "max": 50, "rule_id": "rul-5f0c9a1b2c3d4e5f60718293", "used_after": 13, "used_before": 12, "window": "1h"}]
   */
  limits?: LimitRecordEntry[];
  /**
   * blocked and approval_required, when the request said `"explain": true`: what would make the
   * operation allowed (docs/verdicts.md "Explanations").
   * @example {"not_invertible": [], "to_allow": [{"changes": [{"field": "amount", "op": "lte", "value": 10000}]}]}
   */
  explanation?: Explanation;
}

export type ResolveResponse = IncompleteResolveResponse | CompleteResolveResponse | OverviewIncompleteResponse | OverviewCompleteResponse;

/** GET /<tenant_id>/v1/consultations/<id>/explanation (docs/verdicts.md "Explanations"). */
export interface ConsultationExplanation {
  consultation_id: string;
  verdict: string;
  /** True when the consultation was read from the archive (docs/verdicts.md "Consultations"). */
  archived?: boolean;
  /**
   * What would make the operation allowed, computed from the frozen record: the same explanation a
   * check or resolve with `"explain": true` answered. null for a verdict other than blocked and
   * approval_required.
   * @example {"deciders": ["role-finance"], "not_invertible": [], "to_allow": [{"changes": [{"field": "amount", "op": "lte", "value": 10000}]}]}
   */
  explanation: Explanation | null;
}

/**
 * A consultation read by id (GET .../consultations/<id>): the record exactly as hashed and signed, and, for a `read`
 * caller, the plain values of its sensitive fields beside it (docs/verdicts.md "Sensitive fields").
 */
export interface ConsultationRead extends ConsultationRecord {
  /**
   * Each sensitive value of the record by where it was (`parameters.card`, `context.email`): the value while its data
   * subject's key lives, the string `erased` once it is gone (or when the check named no subject), the string
   * `unreadable` when it does not open under the key that sealed it (an integrity failure). Present only on a
   * record with sensitive values, read with `read`; not covered by normative_hash (leave it out when recomputing).
   */
  sensitive_values?: { [path: string]: unknown };
}
