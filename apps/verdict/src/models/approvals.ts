// The Approval resource (docs/verdicts.md "Approval") and the bodies of its endpoints, as tsoa publishes them.

export type ScopeFieldValue = string | number | boolean;

/** An approval-requiring rule that fired in the consultation. */
export interface ApprovalTriggerModel {
  rule_id: string;
  rule_version_id: string;
  /** `fires` for a rule that fired. */
  reason: string;
}

/** Grant object (docs/verdicts.md "Approval"): the `approval_grant` override an approval created in the registry. */
export interface ApprovalGrant {
  /** `ovr-` prefix */
  override_id: string;
  applies_to_scope: { [field: string]: ScopeFieldValue };
  /** ISO 8601 */
  expires_at: string;
}

/** `expired`: still pending at `expires_at` (docs/approvals.md "Quorum, escalation and expiry"). */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';

/** One approval given (docs/approvals.md "Quorum, escalation and expiry"). */
export interface ApprovalGiven {
  /** The principal that approved. */
  decider: string;
  /** ISO 8601 */
  decided_at: string;
  notes: string | null;
  /**
   * The triggering rules this approval counts for (docs/approvals.md "Several rules"): those that list the decider
   * (by id or role) among their deciders or list none, and, from each rule's own escalation time, those that list it
   * among their escalation deciders. Absent on approvals given before this field existed: they count for every rule.
   */
  rule_ids?: string[];
}
export type ApprovalDecision = 'approve' | 'reject';

export interface Approval {
  /** `apr-` prefix */
  id: string;
  tenant_id: string;
  status: ApprovalStatus;
  /** The principal that made the consultation and requested the approval (only it may). */
  requester: string;
  /** The principal on whose behalf: the consultation's on_behalf_of, else the requester. Neither decides. */
  requester_principal: string;
  intended_action: string;
  intended_resource: string;
  intended_parameters: { [field: string]: unknown };
  /** The consultation's scope (scope_used): a natural `applies_to_scope` for a grant. */
  intended_scope: { [field: string]: ScopeFieldValue };
  triggers: ApprovalTriggerModel[];
  requester_notes: string | null;
  /** ISO 8601 */
  requested_at: string;
  consultation_id: string;
  /** The consultation's dominating rule (the list's dominating_rule_id filter). */
  dominating_rule_id: string | null;
  /**
   * Principal ids and `role-` ids: the union of the triggering rules' deciders. Empty: any principal
   * holding `approve` or `admin`. Neither the requester nor requester_principal decides, listed or not.
   */
  candidate_deciders: string[];
  /**
   * Distinct approvals needed at least (the largest `approvals_required` of the triggering rules, else 1). The
   * approval is `approved` once every triggering rule has its own `approvals_required` among the approvals that
   * count for it (`approvals[].rule_ids`): with rules of different deciders, that takes an approval of each.
   */
  approvals_required: number;
  /** The approvals given so far, oldest first (a rejection is not listed: it decides at once). */
  approvals: ApprovalGiven[];
  /** ISO 8601: a pending approval is `expired` from then on (the earliest of the triggering rules', else APPROVAL_TTL_SECONDS). */
  expires_at: string;
  /** ISO 8601, or null: from then on `escalation_deciders` may decide too. */
  escalates_at: string | null;
  /** Principal and `role-` ids who may decide from `escalates_at` on; empty when none. */
  escalation_deciders: string[];
  /** The decider that completed the quorum or rejected; null while pending or expired. */
  decider: string | null;
  /** null while pending */
  decision: ApprovalDecision | null;
  decider_notes: string | null;
  /** ISO 8601; null while pending */
  decided_at: string | null;
  /** Present when approved with a grant. */
  grants?: ApprovalGrant[];
  /**
   * Approved without a grant: until then (ISO 8601) the requester's next check of exactly the approved
   * operation is allowed, once. null otherwise.
   */
  authorizes_until?: string | null;
  /** The consultation that used the one-shot approval; null until then. */
  consumed_by?: string | null;
  /** ISO 8601; when it was used. */
  consumed_at?: string | null;
}

export interface CreateApprovalBody {
  /** A consultation of this tenant whose verdict was approval_required. */
  consultation_id: string;
  /** @maxLength 20000 */
  requester_notes?: string;
}

export interface GrantRequestBody {
  /**
   * Later operations whose scope contains every field of this object (same values) are covered. It must
   * hold every field of the approved operation's scope (`intended_scope`) with its value, so a grant
   * covers at most that scope; absent: exactly `intended_scope`.
   */
  applies_to_scope?: { [field: string]: ScopeFieldValue };
  /**
   * ISO 8601 timestamp with `Z` or an offset (400 otherwise), in the future, at most APPROVAL_GRANT_TTL_SECONDS
   * (default 3600) after the decision: the override ends then. Absent: that bound.
   */
  expires_at?: string;
}

export interface DecisionBody {
  decision: ApprovalDecision;
  /** @maxLength 20000 */
  decider_notes?: string;
  /** Only with `approve`: creates an `approval_grant` override over every triggering rule. */
  grant?: GrantRequestBody;
}

export interface ApprovalList {
  items: Approval[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}
