import type { AuthenticatedIdentity, Identity, TenantId } from '@arbiter/auth';
import { scopesNotCovered } from '../domain/approval-rules';
import { AppError, shownId } from '@arbiter/http';
import { registryUnavailable } from '../domain/errors';
import { requireAnyPermission } from '../domain/tenant-access';
import type { RuleVersion } from '../models/rule-versions';
import type { SnapshotStore } from './snapshot-store.service';
import type { TriggerVersion } from '@arbiter/policy';
import {
  publicRuleVersion,
  RegistryUnavailableError,
  type InternalRuleVersion,
  type PublicRuleVersion,
  type RegistryInternalClient,
} from '@arbiter/internal-api';

/** A rule version as approvals and scope checks read it: what it asks of a decision, and the scope it lies in. */
export type ScopedVersion = TriggerVersion & { scope_id?: string | null };

/**
 * GET /v1/rule-versions/<id> (docs/verdicts.md "Rule version"): the registry keeps versions immutable
 * (a trigger refuses UPDATE and DELETE there); the gateway reads them through the internal API,
 * restricted to the caller's tenant.
 */
export class RuleVersionsService {
  /** Version content by id (tenant-checked on read): versions never change, so a hit is kept for good. */
  private readonly contents = new Map<string, InternalRuleVersion>();

  constructor(
    private readonly registry: RegistryInternalClient,
    /** The tenants' snapshots: the current versions are read there first, with no registry call. */
    private readonly snapshots: Pick<SnapshotStore, 'current' | 'get'>,
    private readonly maxCached = 10_000,
  ) {}

  /**
   * The versions of `ids` of the tenant, by id, for explanations (docs/verdicts.md "Explanations"): read
   * through the internal API at most 8 at a time, then cached. An id the registry does not hold for the
   * tenant is missing from the map; 503 registry_unavailable when the registry cannot answer (`unavailable`,
   * the message that says what to do then).
   */
  async contentsOf(tenantId: TenantId, ids: readonly string[], unavailable?: string): Promise<Map<string, InternalRuleVersion>> {
    const out = new Map<string, InternalRuleVersion>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = this.contents.get(id);
      if (hit?.tenant_id === tenantId) out.set(id, hit);
      else if (!hit) missing.push(id);
    }
    const read = async (id: string): Promise<void> => {
      const v = await this.registry.ruleVersion(id, tenantId);
      if (!v || v.tenant_id !== tenantId) return;
      if (this.contents.size >= this.maxCached) this.contents.delete(this.contents.keys().next().value as string);
      this.contents.set(id, v);
      out.set(id, v);
    };
    try {
      for (let i = 0; i < missing.length; i += 8) await Promise.all(missing.slice(i, i + 8).map(read));
    } catch (err) {
      if (err instanceof RegistryUnavailableError) throw registryUnavailable(unavailable);
      throw err;
    }
    return out;
  }

  /**
   * Each of `ids` (in order) as the tenant's snapshot holds it (a current version), else as the registry serves it
   * (contentsOf, cached); null where the tenant has no such version. What an approval's triggering rules ask of a
   * decision and where each lies (its `scope_id`) are read here, and only here.
   */
  async scopedVersions(tenantId: TenantId, ids: readonly string[], unavailable?: string): Promise<(ScopedVersion | null)[]> {
    if (ids.length === 0) return [];
    const snapshot = this.snapshots.current(tenantId) ?? (await this.snapshots.get(tenantId));
    const wanted = new Set(ids);
    const held = new Map<string, ScopedVersion>();
    for (const r of snapshot.state.rules) if (wanted.has(r.rule_version_id)) held.set(r.rule_version_id, r);
    const missing = ids.filter((id) => !held.has(id));
    const read = missing.length ? await this.contentsOf(tenantId, missing, unavailable) : null;
    return ids.map((id) => held.get(id) ?? (read?.get(id) as ScopedVersion | undefined) ?? null);
  }

  /**
   * Whether a key reaches what these rule versions govern (docs/verdicts.md "Authentication"): every key valid for
   * all scopes does; a key restricted by `scope_ids` only when there is at least one version and every one lies in
   * its scopes (a version not found, or null, lies nowhere it reaches). No registry read for an unrestricted key.
   */
  async reaches(identity: AuthenticatedIdentity, ruleVersionIds: readonly (string | null)[]): Promise<boolean> {
    if (identity.scope_ids.length === 0) return true;
    if (ruleVersionIds.length === 0 || ruleVersionIds.includes(null)) return false;
    const versions = await this.scopedVersions(identity.tenant_id as TenantId, ruleVersionIds as string[]);
    return (
      scopesNotCovered(
        identity.scope_ids,
        versions.map((v) => v?.scope_id ?? null),
      ).length === 0
    );
  }

  async get(identity: Identity, id: string): Promise<RuleVersion> {
    requireAnyPermission(identity, ['read', 'check']);
    let v: Record<string, unknown> | null;
    try {
      v = await this.registry.ruleVersion(id, identity.tenant_id);
    } catch (err) {
      if (err instanceof RegistryUnavailableError) throw registryUnavailable();
      throw err;
    }
    // A key restricted to some scopes reads the versions of its scopes only; another answers as one that does not exist.
    const restricted = identity.scope_ids;
    if (!v || v.tenant_id !== identity.tenant_id || (restricted.length > 0 && !restricted.includes(String(v.scope_id)))) {
      throw new AppError(404, 'rule_version_not_found', `Rule version ${shownId(id)} does not exist in this tenant`, {
        rule_version_id: shownId(id),
      });
    }
    return publicRuleVersion(v);
  }
}

// The documented RuleVersion (models/rule-versions.ts, for tsoa) and libs/internal-api's presenter
// type, the form the registry's rule-version seals hash, must stay the same shape: a field added to
// one only does not compile.
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const RULE_VERSION_SHAPES_AGREE: SameShape<RuleVersion, PublicRuleVersion> = true;
