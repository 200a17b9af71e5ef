/** The frozen consultation record (docs/verdicts.md "Consultation record"), exactly as stored and returned. */
export interface PrecedenceTraceEntry {
  rule_id: string;
  rule_version_id: string;
  /** block, approval, observe, allow */
  severity: string;
  /** exact, partial, tenant */
  scope_match: string;
  /** fires, condition_false, not_applicable, missing_context, overridden */
  reason: string;
  /** On the dominating entry: the precedence key that decided (severity, verdict, scope_match, priority, recency, rule_version_id, only_candidate). */
  decided_by?: string;
  missing_fields?: string[];
  /** With reason overridden: the override (`ovr-`) or one-shot approval (`apr-`) that neutralised the rule. */
  overridden_by?: string;
  /** Conditional overrides of the rule that did not apply, and why (docs/verdicts.md "Overrides"). */
  overrides_not_applied?: OverrideNotApplied[];
  /**
   * Only on a rule with `limit` or `requires_prior` whose conditions fired (docs/verdicts.md "Budgets, rates and
   * sequences"): within, exceeded, prior_found, prior_missing, limit_unavailable.
   */
  limit_state?: string;
}

/** An override that did not neutralise its rule for this operation (fail closed). */
export interface OverrideNotApplied {
  override_id: string;
  /** override_condition_false, override_condition_missing, override_condition_error; override_rule_changed (an approval grant made for another version of the rule) */
  reason: string;
  /** override_condition_missing: the fields the conditions read that the operation lacks. */
  missing_fields?: string[];
  /** override_condition_error: what went wrong. */
  error?: string;
}

/** An approval-requiring rule that fired (docs/verdicts.md "Approval", `triggers`). */
export interface ApprovalTrigger {
  rule_id: string;
  rule_version_id: string;
  reason: string;
}

/**
 * A shadow rule that would have decided this consultation otherwise (docs/verdicts.md "Shadow rules"):
 * it fired, would have outranked the dominating rule, and its verdict is `would_be`.
 */
export interface ShadowDisagreement {
  rule_id: string;
  rule_version_id: string;
  would_be: string;
}

/** One change of an alternative (docs/verdicts.md "Explanations"): the field's new value must satisfy `op value`. */
export interface ExplanationChange {
  /** The dot path, as the rules spell it (a parameter, or the context Fact that supplies it). */
  field: string;
  /** A condition op: gt, gte, lt, lte, eq, neq, in, not_in, exists. */
  op: string;
  value: unknown;
}

/** A rule's provenance Requirement on a changed field: the new value must come as a Fact meeting it. */
export interface ExplanationRequirement {
  acceptable_sources?: string[];
  confidence_threshold?: number;
  field: string;
  rule_id: string;
  source_requirement?: 'verified';
}

/** One way to `allowed`: every change together. */
export interface ExplanationAlternative {
  changes: ExplanationChange[];
  /** Present when a change needs a Fact meeting a rule's provenance Requirement. */
  requirements?: ExplanationRequirement[];
}

/** A row of a firing rule that no change of the operation's parameters can make false (contains, starts_with, or a field of the request itself). */
export interface NotInvertibleRow {
  field: string;
  op: string;
  rule_id: string;
}

/** What would make a blocked or approval_required operation allowed (docs/verdicts.md "Explanations"). */
export interface Explanation {
  /** approval_required only: who can decide (principal and role ids). */
  deciders?: string[];
  not_invertible: NotInvertibleRow[];
  /** Alternative minimal sets of changes, fewest fields first (at most 8); empty when none was found. */
  to_allow: ExplanationAlternative[];
}

/** A verified ledger citation of one context field, as the consultation record keeps it. */
export interface LedgerCitationEntry {
  /** `fct-` prefix */
  fact_id: string;
  /** The fact's fact_hash (docs/ledger-formats.md "fact_hash"), recomputed by the gateway. */
  fact_hash: string;
  /** The tenant's ledger stream that holds it. */
  stream_id: string;
  /**
   * The principal that sealed it, as the ledger authenticated it (fact_hash covers it): never the caller
   * nor its on_behalf_of. Absent in records made before the ledger recorded sealers.
   */
  sealed_by?: string;
  /** Where the Fact's value was read in the fact's custom_payload. */
  payload_path: string;
}

/**
 * A window of a `limit` rule the consultation read (docs/verdicts.md "Windows and outcomes"): what it held
 * before this operation and after it (`used_after` = `used_before` + the operation's amount when the
 * operation went ahead and consumed it, else `used_before`).
 */
export interface LimitRecordEntry {
  /** The rule's `by` paths and this operation's values on them, as RFC 8785 canonical JSON (`{}` without `by`). */
  key: string;
  max: number;
  rule_id: string;
  used_after: number;
  used_before: number;
  /** The rule's window as written, e.g. `1h`. */
  window: string;
}

export interface RequiredContextRound {
  round: number;
  /** The fields the round asked for; empty for the round that completed. */
  fields: string[];
}

export interface ConsultationRecord {
  /** `cns-` prefix */
  id: string;
  tenant_id: string;
  /** `check` or `resolve` */
  operation: string;
  caller_principal_id: string;
  on_behalf_of: string | null;
  /** true when on_behalf_of names an active human principal of the tenant (docs/verdicts.md). */
  on_behalf_of_authenticated: boolean;
  requested_at: string;
  action: string;
  resource: string;
  scope_used: { [field: string]: string | number | boolean };
  parameters: { [field: string]: unknown };
  /** sha256 over the RFC 8785 form of {action, resource, scope, parameters, context} (docs/verdicts.md). */
  context_hash: string;
  context_snapshot: { [field: string]: unknown };
  cited_entry_ids: string[];
  cited_rule_version_ids: string[];
  dominating_rule_id: string | null;
  precedence_trace: PrecedenceTraceEntry[];
  resolved_target_ids: string[];
  verdict: string;
  /** For approval_required: the rules an approval must cover. Empty otherwise. */
  triggers: ApprovalTrigger[];
  /** For approval_required: who may decide (principal and role ids). Empty otherwise. */
  candidate_deciders: string[];
  /** Overrides that neutralised a candidate rule (and the one-shot approval, when one was used). */
  applied_override_ids: string[];
  /**
   * Shadow rules that disagree with this verdict, in precedence order (docs/verdicts.md "Shadow rules").
   * Present only when there is one; hashed and signed like every other member.
   */
  shadow?: ShadowDisagreement[];
  /**
   * The approval (`apr-`) approved without a grant that allowed this operation, once (docs/approvals.md).
   * Absent on every other consultation.
   */
  approval_id?: string;
  /**
   * Only on blocked and approval_required records made before explanations were computed on demand
   * (docs/verdicts.md "Explanations"), which stored it, hashed and signed. Newer records never carry it:
   * GET .../consultations/<id>/explanation computes it from the record.
   */
  explanation?: Explanation;
  /**
   * The context fields whose Fact cited a ledger fact the gateway verified, with the fact and where the
   * value was read (docs/verdicts.md "Facts the ledger vouches for"). Absent when no Fact cited one.
   */
  ledger_citations?: { [field: string]: LedgerCitationEntry };
  /**
   * The windows of the `limit` rules this consultation read (docs/verdicts.md "Windows and outcomes"). Absent
   * when it read none; hashed and signed like every other member.
   */
  limits?: LimitRecordEntry[];
  /** `<tenant_id>:<epoch>` */
  signing_kid: string;
  signing_epoch: string;
  verdict_ttl_seconds: number;
  expired_at: string;
  required_context_history: RequiredContextRound[];
  /** Opaque correlation ids sent on resolve; stored, never interpreted. */
  correlation: { [key: string]: unknown } | null;
  /** The registry state the rules came from (its state_hash and revision). */
  state_hash: string;
  state_revision: number;
  /** sha256 over the RFC 8785 form of this record without normative_hash and signed_verdict. */
  normative_hash: string;
  /** Compact JWS (ES256) over the verdict's claims, kid = signing_kid. */
  signed_verdict: string;
  /**
   * Never stored nor hashed: `true` beside a record a read found in the archive, its partition gone from PostgreSQL
   * (docs/verdicts.md "Consultations"). A verifier sets it aside before it recomputes normative_hash.
   */
  archived?: boolean;
}

/**
 * The rule versions a key restricted to some scopes must reach to read a consultation or report its outcome
 * (docs/verdicts.md "Authentication"): those it cites, and those of the rules whose windows it took from (its
 * `limits`: a budget with room is not cited, yet it counted the operation). null stands for a rule the record names
 * by id only (a shadow rule's window), which lies nowhere such a key reaches.
 */
export function reachedVersionIds(
  record: Pick<ConsultationRecord, 'cited_rule_version_ids' | 'limits' | 'precedence_trace'>,
): (string | null)[] {
  if (!record.limits?.length) return record.cited_rule_version_ids;
  const versionOf = new Map(record.precedence_trace.map((e) => [e.rule_id, e.rule_version_id]));
  return [...record.cited_rule_version_ids, ...record.limits.map((l) => versionOf.get(l.rule_id) ?? null)];
}
