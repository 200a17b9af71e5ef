// A tenant's evaluable state, built once per registry state (README.md "Architecture"): the compiled rule
// engine policy plus what a check needs besides (scope schema, principals, TTL and round limits).
// Pure: the same registry state always gives the same snapshot.
import { isIntegerIn } from '@arbiter/input';
import { mintTenantId, type TenantId } from '@arbiter/auth';
import {
  actionGoverned,
  compilePolicy,
  engineRule,
  PolicyCompileError,
  ruleContent,
  type CompiledPolicy,
  type Deadline,
  type EngineOverride,
  type EngineRule,
} from '@arbiter/policy';
import type { PrincipalState, ScopeFieldSchema, ScopeValue, TenantState } from '@arbiter/internal-api';
import { sensitivePolicy, type SensitivePolicy } from '@arbiter/sensitive';

/** docs/verdicts.md "Limits" and defaults. */
export const DEFAULT_VERDICT_TTL_SECONDS = 300;
export const MAX_VERDICT_TTL_SECONDS = 3600;
export const DEFAULT_MAX_RESOLVE_ROUNDS = 12;

export interface TenantSnapshot {
  tenantId: TenantId;
  tenantSlug: string;
  revision: number;
  stateHash: string;
  policy: CompiledPolicy;
  /** null: the tenant has no scope_schema, so any scope field is accepted. */
  scopeFields: ReadonlyMap<string, ScopeFieldSchema> | null;
  verdictTtlSeconds: number;
  maxResolveRounds: number;
  principals: ReadonlyMap<string, PrincipalState>;
  /** The tenant's sensitive fields and data subject field (docs/verdicts.md "Sensitive fields"); null when it lists none. */
  sensitive: SensitivePolicy | null;
  /**
   * Overview resolve: whether some rule governs this action type, by a glob of its `applies_to.actions`
   * or by naming no actions at all (a rule without `applies_to.actions` covers every action). Shadow
   * rules never decide, so they make no action known. Within `deadline` (EvaluationBudgetExceededError).
   */
  knowsAction(actionType: string, deadline?: Deadline | null): boolean;
  /** The registry state the snapshot was built from (the simulation applies its changes to a copy). */
  state: TenantState;
}

/** The registry state cannot be evaluated as it stands (the caller keeps its previous snapshot). */
export class SnapshotBuildError extends Error {
  readonly code = 'invalid_state';
  constructor(
    message: string,
    readonly subject: string | null = null,
  ) {
    super(message);
    this.name = 'SnapshotBuildError';
  }
}

/**
 * Maps the registry's state onto the engine (engine mapping notes): a rule's selector is its scope's
 * selector, its statement the directive; only rule-targeting overrides act on rules.
 */
export function engineRules(state: TenantState): EngineRule[] {
  const selectors = new Map(state.scopes.map((s) => [s.id, s.selector ?? {}]));
  return state.rules.map((r) => {
    const selector = selectors.get(r.scope_id);
    if (!selector) throw new SnapshotBuildError(`scope ${r.scope_id} of rule ${r.rule_id} is not in the state`, r.rule_id);
    // A state from a registry without modes has none: ruleContent fills in enforce.
    return engineRule(ruleContent(r), {
      rule_id: r.rule_id,
      rule_version_id: r.rule_version_id,
      selector,
      version_created_at: r.version_created_at,
    });
  });
}

/**
 * An override without `applies_to_scope` covers the selector of the scope it was created in, never
 * the whole tenant (docs/identity.md). One whose scope is not in the state (which the registry
 * never serves) is left out: it neutralises nothing.
 */
export function engineOverrides(state: TenantState): EngineOverride[] {
  const selectors = new Map(state.scopes.map((s) => [s.id, s.selector ?? {}]));
  const out: EngineOverride[] = [];
  for (const o of state.overrides) {
    if (o.target_type !== 'rule') continue;
    const ownScope = o.scope_id ?? o.scope_ids?.[0];
    const appliesTo = o.applies_to_scope ?? (ownScope !== undefined ? selectors.get(ownScope) : undefined);
    if (!appliesTo) continue;
    out.push({
      id: o.id,
      target_rule_ids: o.target_ids,
      target_rule_version_ids: o.target_version_ids ?? null,
      applies_to_scope: appliesTo,
      expires_at: o.expires_at,
      type: o.override_type,
      conditions: o.conditions ?? null,
    });
  }
  return out;
}

function boundedInt(value: unknown, fallback: number, min: number, max: number): number {
  return isIntegerIn(value, min, max) ? value : fallback;
}

/** Builds the snapshot; throws SnapshotBuildError when the state cannot be evaluated (fail closed). */
export function buildSnapshot(state: TenantState): TenantSnapshot {
  const settings = state.settings ?? {};
  let policy: CompiledPolicy;
  try {
    policy = compilePolicy(engineRules(state), engineOverrides(state), {
      default_verdict: settings.default_verdict ?? null,
      context_schema: (settings.context_schema as never) ?? null,
    });
  } catch (err) {
    if (err instanceof PolicyCompileError) throw new SnapshotBuildError(err.message, err.subject);
    throw err;
  }
  let sensitive: SensitivePolicy | null;
  try {
    sensitive = sensitivePolicy(settings);
  } catch (err) {
    // Fail closed: a value the tenant asked to protect is never evaluated under settings the gateway cannot read.
    throw new SnapshotBuildError((err as Error).message);
  }
  const schemaFields = settings.scope_schema?.fields;
  const scopeFields = schemaFields && typeof schemaFields === 'object' ? new Map(Object.entries(schemaFields)) : null;
  return {
    // Trust boundary: the registry's answer to an internal-token call for the tenant the key named.
    tenantId: mintTenantId(state.tenant_id),
    tenantSlug: state.tenant_slug,
    revision: state.revision,
    stateHash: state.state_hash,
    policy,
    scopeFields,
    verdictTtlSeconds: boundedInt(settings.verdict_ttl_seconds, DEFAULT_VERDICT_TTL_SECONDS, 1, MAX_VERDICT_TTL_SECONDS),
    maxResolveRounds: boundedInt(settings.max_resolve_rounds, DEFAULT_MAX_RESOLVE_ROUNDS, 1, 1000),
    principals: new Map(state.principals.map((p) => [p.id, p])),
    sensitive,
    // The enforced rules' action index (docs/verdicts.md "Shadow rules": shadow rules are indexed apart).
    knowsAction: (actionType, deadline = null) => actionGoverned(policy, actionType, deadline),
    state,
  };
}

export type { ScopeFieldSchema, ScopeValue };
