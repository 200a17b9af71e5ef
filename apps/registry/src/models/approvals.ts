import type { AuthorType, ServerFields } from './common';

/**
 * A registry approval: a person or agent asks to go against an invariant or rule
 * (docs/approvals.md). Deciding it `approved` when the trigger requires approval creates an
 * `approval_grant` override in the same transaction.
 */
export interface Approval extends ServerFields {
  /** `apr-` prefix */
  id: string;
  scope_id: string;
  /** The invariant (`inv-`) or rule (`rul-`) the requester wants to go against. */
  trigger_id: string;
  trigger_type: 'invariant' | 'rule';
  /** The rule's current version (`rv-`) when requested; null for an invariant. */
  trigger_version_id: string | null;
  /**
   * Whether the trigger required approval when requested: an invariant with `requires_approval`,
   * or a rule of severity `REQUIRES_APPROVAL`. Only then does approving create an override.
   */
  requires_approval: boolean;
  intended_action: string;
  justification: string | null;
  requested_by: string;
  requested_by_type: AuthorType;
  /**
   * Principal and role ids who may decide: the rule's `deciders` (docs/verdicts.md). Empty means
   * any principal holding the `approve` permission. Webhook subscriptions route on it.
   */
  candidate_deciders: string[];
  /**
   * `pending` until decided, then `approved` or `rejected` (once: a second decision is 409); `expired`
   * when still pending at `expires_at` (docs/approvals.md "Quorum, escalation and expiry").
   */
  status: 'pending' | 'approved' | 'rejected' | 'expired';
  /** Distinct approvals needed: the rule's `approvals_required`, else 1 (an invariant: 1). */
  approvals_required: number;
  /** The approvals given so far, oldest first (a rejection is not listed: it decides at once). */
  approvals: ApprovalGiven[];
  /** ISO 8601: a pending approval is `expired` from then on (the rule's approval_expires_after, else APPROVAL_TTL_SECONDS). */
  expires_at: string;
  /** ISO 8601, or null: from then on `escalation_deciders` may decide too. */
  escalates_at: string | null;
  /** Principal and `role-` ids who may decide from `escalates_at` on; empty when none. */
  escalation_deciders: string[];
  /** The decision value, equal to status once decided; null while pending. */
  decision: 'approved' | 'rejected' | null;
  comment: string | null;
  /**
   * A free-text note from the decision (default: the deciding principal's id); null while pending.
   * Not an identity: who decided is `decider_principal_id`.
   */
  decided_by: string | null;
  /** The principal whose key decided (the override's `approved_by`); null while pending. */
  decider_principal_id: string | null;
  decided_at: string | null;
  /** The `approval_grant` override created by approving, or null. */
  override_id: string | null;
}

/** One approval given towards the quorum. */
export interface ApprovalGiven {
  /** The principal whose key approved. */
  decider: string;
  /** ISO 8601 */
  decided_at: string;
  /** The decision's comment. */
  notes: string | null;
}

export interface RequestApprovalBody {
  /** Id of an active invariant (`inv-`) or rule (`rul-`) of the scope. */
  trigger_id: string;
  /** `invariant` or `rule`; derived from trigger_id when omitted, 400 when it contradicts it. */
  trigger_type?: 'invariant' | 'rule';
  /** @minLength 1 @maxLength 20000 */
  intended_action: string;
  /** @maxLength 20000 */
  justification?: string;
  /**
   * Free text (e.g. the person behind an agent); default: the calling principal's id. Not an
   * identity: the four-eyes rule goes by the authenticated requester (`created_by`).
   * @minLength 1 @maxLength 200
   */
  requested_by?: string;
  /** Default: the calling principal's kind. */
  requested_by_type?: AuthorType;
}

export interface DecideApprovalBody {
  /** `approved` approves; `rejected` rejects. */
  decision: 'approved' | 'rejected';
  /** @maxLength 20000 */
  comment?: string;
  /**
   * A free-text note (e.g. the person behind the key), kept as the approval's `decided_by`;
   * default: the deciding principal's id. Never used as the decider's identity.
   * @minLength 1 @maxLength 200
   */
  decided_by?: string;
  /**
   * When the override created by approving ends (ISO 8601 with `Z` or an offset, else 400): in the future and at most
   * APPROVAL_GRANT_TTL_SECONDS (default 3600) after the decision, else 422. Default: exactly that
   * bound. Refused with a rejection (400), and on an approval that does not complete the quorum (422).
   */
  expires_at?: Date;
}
