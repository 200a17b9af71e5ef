// The registry's internal API as the gateway reads it (docs/registry.md "Internal API for the verdict
// gateway"). Declared here, not imported: one app never imports another (docs/development.md "Conventions"); the e2e tests run
// the two services against each other.
import type { Condition, Requirement, Severity } from '../engine';

export type ScopeValue = string | number | boolean;

export interface ScopeFieldSchema {
  allowed_values?: ScopeValue[];
  type?: 'string' | 'number' | 'boolean';
}

/** Tenant settings the gateway reads (docs/verdicts.md). */
export interface RegistryTenantSettings {
  scope_schema?: { fields?: Record<string, ScopeFieldSchema> } | null;
  context_schema?: { fields?: Record<string, { type?: string; allowed_values?: unknown[]; format?: string }> } | null;
  default_verdict?: string | null;
  verdict_ttl_seconds?: number | null;
  max_resolve_rounds?: number | null;
  [other: string]: unknown;
}

export interface RegistryRuleState {
  rule_id: string;
  rule_version_id: string;
  scope_id: string;
  version: number;
  version_created_at: string;
  directive: string;
  severity: Severity;
  verdict: string | null;
  applies_to: { actions?: string[]; resources?: string[] } | null;
  conditions: Condition[];
  condition_mode: 'all' | 'any';
  requires: Requirement[];
  deciders: string[];
  priority: number | null;
}

export interface RegistryOverrideState {
  id: string;
  override_type: string;
  target_type: 'invariant' | 'rule';
  target_ids: string[];
  /** The scope it was created in; its selector bounds an override without applies_to_scope. */
  scope_id: string;
  scope_ids: string[];
  applies_to_scope: Record<string, ScopeValue> | null;
  /** A CEL expression (docs/verdicts.md "Overrides"); null = none. */
  conditions: string | null;
  expires_at: string | null;
  approval_id: string | null;
}

export interface RegistryPrincipalState {
  id: string;
  kind: 'agent' | 'human';
  active: boolean;
  roles: string[];
}

/** GET /internal/v1/tenants/{tenant_id}/state */
export interface RegistryTenantState {
  tenant_id: string;
  tenant_slug: string;
  revision: number;
  state_hash: string;
  generated_at: string;
  valid_until: string | null;
  settings: RegistryTenantSettings;
  scopes: Array<{ id: string; name: string; selector: Record<string, ScopeValue> }>;
  rules: RegistryRuleState[];
  invariants: Array<{ id: string; scope_id: string; constraint: string; requires_approval: boolean }>;
  overrides: RegistryOverrideState[];
  principals: RegistryPrincipalState[];
}

/** GET /internal/v1/tenants/{tenant_id}/state-hash */
export interface RegistryStateHash {
  tenant_id: string;
  revision: number;
  state_hash: string;
  valid_until: string | null;
}

/** Redis channel `arbiter:registry:changed`: one message per committed registry change. */
export const REGISTRY_CHANGED_CHANNEL = 'arbiter:registry:changed';

export interface RegistryChangeMessage {
  tenant_id: string;
  revision: number;
  event_ids?: string[];
  types?: string[];
  scope_ids?: string[];
}
