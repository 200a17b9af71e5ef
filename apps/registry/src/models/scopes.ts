import type { ScopeSelector, ServerFields } from './common';

export interface Scope extends ServerFields {
  /** `scp-` prefix */
  id: string;
  name: string;
  description: string | null;
  /** Scope fields a verdict request must carry for this scope's rules to be candidates ({} = whole tenant). */
  selector: ScopeSelector;
  status: 'active';
}

export interface EntryCounts {
  decisions: number;
  /** Active invariants. */
  invariants: number;
  /** Active rules. */
  rules: number;
  /** Overrides in effect now (not revoked, not expired). */
  overrides: number;
  references: number;
  namespaces: number;
}

/** GET /scopes/{scope_id}: the scope with its entry counts. */
export interface ScopeDetails extends Scope {
  entry_counts: EntryCounts;
}

export interface CreateScopeBody {
  /**
   * Unique within the tenant.
   * @minLength 1 @maxLength 200
   */
  name: string;
  /** @maxLength 5000 */
  description?: string;
  /** Defaults to {} (the scope covers the whole tenant). */
  selector?: ScopeSelector;
}

export interface UpdateScopeBody {
  /** @minLength 1 @maxLength 200 */
  name?: string;
  /** @maxLength 5000 */
  description?: string | null;
  /** Replaces the selector as a whole. */
  selector?: ScopeSelector;
}
