import type { Identity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { registryUnavailable } from '../http/errors';
import { requireAnyPermission } from '../http/tenant-access';
import type { RuleVersion } from '../models/rule-versions';
import { RegistryUnavailableError, type RegistryInternalClient } from '@arbiter/internal-api';

/**
 * GET /v1/rule-versions/<id> (docs/verdicts.md "Rule version"): the registry keeps versions immutable
 * (a trigger refuses UPDATE and DELETE there); the gateway reads them through the internal API,
 * restricted to the caller's tenant.
 */
export class RuleVersionsService {
  constructor(private readonly registry: RegistryInternalClient) {}

  async get(identity: Identity, id: string): Promise<RuleVersion> {
    requireAnyPermission(identity, ['read', 'check']);
    let v: Record<string, unknown> | null;
    try {
      v = await this.registry.ruleVersion(id, identity.tenant_id);
    } catch (err) {
      if (err instanceof RegistryUnavailableError) throw registryUnavailable();
      throw err;
    }
    if (!v || v.tenant_id !== identity.tenant_id) {
      throw new AppError(404, 'rule_version_not_found', `Rule version ${id} does not exist in this tenant`, { rule_version_id: id });
    }
    return presentRuleVersion(v);
  }
}

/** The registry's RuleVersion, field by field (nothing passes through unnamed). */
export function presentRuleVersion(v: Record<string, unknown>): RuleVersion {
  return {
    id: v.id as string,
    rule_id: v.rule_id as string,
    tenant_id: v.tenant_id as string,
    scope_id: v.scope_id as string,
    version: v.version as number,
    statement: v.directive as string,
    severity: v.severity as string,
    verdict: (v.verdict ?? null) as string | null,
    applies_to: (v.applies_to ?? null) as RuleVersion['applies_to'],
    conditions: (v.conditions ?? []) as RuleVersion['conditions'],
    condition_mode: (v.condition_mode ?? 'all') as string,
    requires: (v.requires ?? []) as RuleVersion['requires'],
    deciders: (v.deciders ?? []) as string[],
    priority: (v.priority ?? null) as number | null,
    author: v.author as string,
    author_type: v.author_type as string,
    created_at: v.created_at as string,
    created_by: (v.created_by ?? null) as string | null,
    status: v.status as string,
    rule_status: (v.rule_status ?? 'active') as string,
  };
}
