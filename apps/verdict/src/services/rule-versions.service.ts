import type { Identity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { registryUnavailable } from '../http/errors';
import { requireAnyPermission } from '../http/tenant-access';
import type { RuleVersion } from '../models/rule-versions';
import { publicRuleVersion, RegistryUnavailableError, type RegistryInternalClient } from '@arbiter/internal-api';

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

/**
 * The registry's RuleVersion, field by field (nothing passes through unnamed): libs/internal-api's
 * presenter, the form the registry's rule-version seals hash (docs/operations.md "Seal relay").
 */
export function presentRuleVersion(v: Record<string, unknown>): RuleVersion {
  return publicRuleVersion(v);
}
