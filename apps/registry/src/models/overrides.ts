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
  target_type: 'invariant' | 'rule';
  override_type: OverrideType;
  justification: string;
  conditions: string | null;
  approved_by: string | null;
  /** The override only covers operations whose scope contains these fields; null = every operation. */
  applies_to_scope: ScopeSelector | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** Computed when read: `expired` once expires_at has passed. Only `active` overrides have an effect. */
  status: 'active' | 'expired' | 'revoked';
  approval_id: string | null;
  consultation_id: string | null;
}

export interface CreateOverrideBody {
  /** Id of an active invariant (`inv-`) or rule (`rul-`) of the scope. */
  target_id: string;
  override_type: 'temporary' | 'conditional' | 'permanent';
  /** @minLength 1 @maxLength 20000 */
  justification: string;
  /** Free text; required for `conditional`. @maxLength 20000 */
  conditions?: string;
  /** @maxLength 200 */
  approved_by?: string;
  /** Restricts the override to operations whose scope contains these fields (verdict gateway). */
  applies_to_scope?: ScopeSelector;
  /** ISO 8601 timestamp in the future; required for `temporary`. */
  expires_at?: Date;
}
