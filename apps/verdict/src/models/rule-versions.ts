/** A condition row (docs/verdicts.md). */
export interface ConditionRow {
  field: string;
  op: string;
  value?: unknown;
}

/** A version's budget or rate (docs/verdicts.md "Rule version"): `count` or `sum`, its window and key paths. */
export interface RuleVersionLimit {
  /** Counts the operations. */
  count?: true;
  /** Adds up this parameter (`parameters.<field>`). */
  sum?: string;
  max: number;
  /** A duration such as `1h`. */
  window: string;
  /** One window per value of these paths (empty: one for the rule). */
  by: string[];
}

/** The earlier operation a version needs (docs/verdicts.md "Rule version"). */
export interface RuleVersionPrior {
  action: string;
  /** A duration such as `1h`. */
  within: string;
  /** The paths on which it must match. */
  same: string[];
}

/**
 * An immutable rule version (docs/verdicts.md "Rule version"): the exact statement, the condition rows, the
 * severity and the metadata as they were when the version was made, whatever happened to the rule since.
 */
export interface RuleVersion {
  /** `rv-` prefix */
  id: string;
  rule_id: string;
  tenant_id: string;
  scope_id: string;
  /** The version number within its rule (1, 2, ...). */
  version: number;
  /** The rule's directive, exactly as written for this version. */
  statement: string;
  /** MANDATORY, REQUIRES_APPROVAL, ADVISORY or ALLOW */
  severity: string;
  verdict: string | null;
  applies_to: { actions?: string[]; resources?: string[] } | null;
  conditions: ConditionRow[];
  condition_mode: string;
  requires: Array<{ [key: string]: unknown }>;
  deciders: string[];
  priority: number | null;
  /** Only on a shadow version: `shadow` (docs/verdicts.md "Shadow rules"). Absent: the version is enforced. */
  mode?: 'shadow';
  /** Only when set (docs/approvals.md "Quorum, escalation and expiry"): distinct approvals needed. */
  approvals_required?: number;
  /** Only when set: seconds after the request from which escalation_deciders may decide. */
  escalate_after?: number;
  /** Only when set: who may decide by escalation (principal and `role-` ids). */
  escalation_deciders?: string[];
  /** Only when set: seconds after the request at which a pending approval expires. */
  approval_expires_after?: number;
  /** Only when set: a budget or rate over a sliding window. */
  limit?: RuleVersionLimit;
  /** Only when set: an earlier operation the rule needs. */
  requires_prior?: RuleVersionPrior;
  author: string;
  author_type: string;
  created_at: string;
  created_by: string | null;
  /** `current` while it is the rule's latest version, `superseded` afterwards. */
  status: string;
  /** The rule's own status today: `active` or `archived`. The version itself never changes. */
  rule_status: string;
}
