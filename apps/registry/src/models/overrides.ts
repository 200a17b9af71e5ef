import type { ScopeSelector, ServerFields } from './common';

/**
 * `temporary` needs `expires_at`; `conditional` needs `conditions`; `permanent` lasts until revoked;
 * `approval_grant` is created by approvals (the verdict gateway's internal endpoint), not by this API.
 */
export type OverrideType = 'temporary' | 'conditional' | 'permanent' | 'approval_grant';

export interface Override extends ServerFields {
  /** `ovr-` prefix */
  id: string;
  /** The scope it was created in (for a grant, the scope of its first target). */
  scope_id: string;
  /** Every scope whose entries it targets. */
  scope_ids: string[];
  /** The (first) suspended invariant or rule. */
  target_id: string;
  /** Every suspended entry (one, except for approval grants covering several rules). */
  target_ids: string[];
  /**
   * Approval grants only: the rule versions (`rv-`) the grant was made for. A target whose current version
   * is another one (the rule changed since) is not neutralised. Absent: any version.
   */
  target_version_ids?: string[];
  target_type: 'invariant' | 'rule';
  override_type: OverrideType;
  justification: string;
  /** A CEL expression over the operation's context (docs/registry.md "Conditional overrides"); null = none. */
  conditions: string | null;
  /** With status invalid_conditions: why the conditions can never hold; otherwise null. */
  conditions_error: string | null;
  /**
   * For an approval grant: the id of the authenticated principal that decided the approval. For an
   * override made through this API: the body's note (the creating principal is `created_by`).
   */
  approved_by: string | null;
  /**
   * The override only covers operations whose scope contains these fields; null = the selector of its
   * own scope (never the whole tenant).
   */
  applies_to_scope: ScopeSelector | null;
  expires_at: string | null;
  revoked_at: string | null;
  /**
   * Computed when read: `revoked`, else `invalid_conditions` (its conditions can never hold, so it
   * neutralises nothing), else `expired` once expires_at has passed, else `active`. Only `active`
   * overrides have an effect.
   */
  status: 'active' | 'expired' | 'revoked' | 'invalid_conditions';
  approval_id: string | null;
  consultation_id: string | null;
}

export interface CreateOverrideBody {
  /** Id of an active invariant (`inv-`) or rule (`rul-`) of the scope. */
  target_id: string;
  override_type: 'temporary' | 'conditional' | 'permanent';
  /** @minLength 1 @maxLength 20000 */
  justification: string;
  /**
   * A CEL expression over the operation's context, e.g. `amount < 20 && currency == "EUR"`; required
   * for `conditional`, optional (and then also binding) for the others. The override neutralises only
   * operations for which it is true; a name it reads that the operation lacks, or an evaluation
   * error, means it does not apply. Anything that does not parse as a boolean CEL expression is 422.
   * @maxLength 20000
   */
  conditions?: string;
  /** @maxLength 200 */
  approved_by?: string;
  /** Restricts the override to operations whose scope contains these fields (verdict gateway). */
  applies_to_scope?: ScopeSelector;
  /** ISO 8601 timestamp with `Z` or an offset, in the future; required for `temporary`. Without `Z` or an offset: 400. */
  expires_at?: Date;
}
