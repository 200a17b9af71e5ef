import type { Identity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { registryUnavailable } from '../http/errors';
import { requireAnyPermission } from '../http/tenant-access';
import type { RuleVersion } from '../models/rule-versions';
import { publicRuleVersion, RegistryUnavailableError, type PublicRuleVersion, type RegistryInternalClient } from '@arbiter/internal-api';

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
    return publicRuleVersion(v);
  }
}

// The documented RuleVersion (models/rule-versions.ts, for tsoa) and libs/internal-api's presenter
// type, the form the registry's rule-version seals hash, must stay the same shape: a field added to
// one only does not compile.
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const RULE_VERSION_SHAPES_AGREE: SameShape<RuleVersion, PublicRuleVersion> = true;
