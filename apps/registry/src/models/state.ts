import type { ScopeSelector } from './common';
import type { TenantSettings } from './identity';
import type { OverrideType } from './overrides';
import type { RequiresPrior, RuleCoreContent, RuleLimit } from './rules';

/**
 * The verdict gateway's view of a tenant (internal API, README.md "Architecture"): everything it needs
 * to evaluate a check without calling the registry. Served by GET /internal/v1/tenants/{id}/state.
 */
export interface TenantState {
  tenant_id: string;
  tenant_slug: string;
  /** Grows with every change of the tenant's registry state or of its principals and settings. */
  revision: number;
  /** sha256 of the canonical JSON of {tenant_id, settings, scopes, rules, invariants, overrides, principals}. */
  state_hash: string;
  generated_at: string;
  /** The earliest expires_at among the listed overrides: the state (and its hash) changes then without any write. */
  valid_until: string | null;
  settings: TenantSettings;
  scopes: ScopeState[];
  rules: RuleState[];
  invariants: InvariantState[];
  overrides: OverrideState[];
  principals: PrincipalState[];
}

export interface ScopeState {
  id: string;
  name: string;
  selector: ScopeSelector;
}

/**
 * An active rule with every machine-readable field of its current version (docs/verdicts.md). `limit` and
 * `requires_prior` only when set (docs/registry.md "Budgets, rates and sequences"), so the state of a tenant
 * without them, and its `state_hash`, are what they were before the fields existed.
 */
export interface RuleState extends RuleCoreContent {
  /** Only when set: the rule's budget or rate. */
  limit?: RuleLimit | null;
  /** Only when set: the earlier operation the rule needs. */
  requires_prior?: RequiresPrior | null;
  rule_id: string;
  rule_version_id: string;
  scope_id: string;
  version: number;
  /** When this version was made: the last precedence tie-break (newest wins). */
  version_created_at: string;
}

export interface InvariantState {
  id: string;
  scope_id: string;
  constraint: string;
  requires_approval: boolean;
}

/** An override in effect when the state was generated; it stops having an effect at expires_at. */
export interface OverrideState {
  id: string;
  override_type: OverrideType;
  target_type: 'invariant' | 'rule';
  target_ids: string[];
  /** An approval grant: the rule versions it lifts; a target whose current version is another one is not neutralised. Absent: any version. */
  target_version_ids?: string[];
  /** The scope it was created in. */
  scope_id: string;
  scope_ids: string[];
  /** null: operations whose scope contains the selector of `scope_id` (never the whole tenant). */
  applies_to_scope: ScopeSelector | null;
  /** A CEL expression; the override neutralises only operations for which it is true. null = none. */
  conditions: string | null;
  expires_at: string | null;
  approval_id: string | null;
}

export interface PrincipalState {
  id: string;
  kind: 'agent' | 'human';
  active: boolean;
  roles: string[];
}

export interface StateHash {
  tenant_id: string;
  revision: number;
  state_hash: string;
  valid_until: string | null;
}
