import type { TenantId } from '@arbiter/auth';
import { sha256Digest } from '@arbiter/canonical';
import type { PrismaClient } from '../generated/prisma/client';
import { notFound } from '../domain/errors';
import type { ScopeSelector } from '../models/common';
import type { TenantSettings } from '../models/identity';
import type { OverrideType } from '../models/overrides';
import type { RuleVersion } from '../models/rules';
import type { StateHash, TenantState } from '../models/state';
import { IdentityRepository } from '../repositories/identity.repository';
import { presentRuleVersion, ruleContent } from '../presenters/registry';
import { repositories, type Repos } from './changes.service';

interface Cached {
  revision: bigint;
  /** ms since epoch at which the earliest listed override expires (Infinity when none). */
  validUntil: number;
  state: TenantState;
}

const MAX_CACHED_TENANTS = 1000;

/**
 * The internal API of the verdict gateway: a tenant's whole evaluable state with a content hash,
 * and a cheap hash check. The state is read in one repeatable-read snapshot together with the
 * tenant's revision, and kept per tenant until the revision moves or an override in it expires,
 * so polling the hash costs one primary-key read.
 */
export class StateService {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly repos: Repos,
  ) {}

  async state(tenantId: TenantId): Promise<TenantState> {
    const revision = await this.repos.events.revision(tenantId);
    const hit = this.cache.get(tenantId);
    if (hit && hit.revision === revision && Date.now() < hit.validUntil) return hit.state;
    return this.build(tenantId);
  }

  async stateHash(tenantId: TenantId): Promise<StateHash> {
    const s = await this.state(tenantId);
    return { tenant_id: s.tenant_id, revision: s.revision, state_hash: s.state_hash, valid_until: s.valid_until };
  }

  /** Any rule version by id (optionally only within a tenant), current or superseded. */
  async ruleVersion(id: string, tenantId?: TenantId): Promise<RuleVersion & { rule_status: 'active' | 'archived' }> {
    const row = tenantId ? await this.repos.rules.findVersion(tenantId, id) : await this.repos.rules.findVersionAnyTenant(id);
    if (!row) throw notFound('Rule version', id);
    return { ...presentRuleVersion(row, row.rule.current_version_id), rule_status: row.rule.status as 'active' | 'archived' };
  }

  private async build(tenantId: TenantId): Promise<TenantState> {
    const now = new Date();
    const snapshot = await this.prisma.$transaction(
      async (tx) => {
        const r = repositories(tx);
        const tenant = await new IdentityRepository(tx).findTenant(tenantId);
        if (!tenant) return null;
        const revision = await r.events.revision(tenantId);
        const [scopes, rules, invariants, overrides, principals] = await Promise.all([
          r.scopes.listAll(tenantId),
          r.rules.active(tenantId),
          r.entries.activeInvariants(tenantId),
          r.overrides.effective(tenantId, now),
          new IdentityRepository(tx).allPrincipals(tenantId),
        ]);
        return { tenant, revision, scopes, rules, invariants, overrides, principals };
      },
      { isolationLevel: 'RepeatableRead', maxWait: 10_000, timeout: 30_000 },
    );
    if (!snapshot) throw notFound('Tenant', tenantId);
    const { tenant, revision } = snapshot;
    const content = {
      tenant_id: tenant.id,
      settings: tenant.settings as TenantSettings,
      scopes: snapshot.scopes.map((s) => ({ id: s.id, name: s.name, selector: s.selector as ScopeSelector })),
      rules: snapshot.rules.flatMap((rule) => {
        const v = rule.current_version;
        if (!v) return [];
        const { author: _a, author_type: _t, limit, requires_prior, ...machine } = ruleContent(v);
        return [
          {
            rule_id: rule.id,
            rule_version_id: v.id,
            scope_id: rule.scope_id,
            version: v.version,
            version_created_at: v.created_at.toISOString(),
            ...machine,
            // Only when set: the state of a tenant without them hashes as before they existed.
            ...(limit ? { limit } : {}),
            ...(requires_prior ? { requires_prior } : {}),
          },
        ];
      }),
      invariants: snapshot.invariants.map((i) => ({
        id: i.id,
        scope_id: i.scope_id,
        constraint: i.constraint,
        requires_approval: i.requires_approval,
      })),
      overrides: snapshot.overrides.map((o) => ({
        id: o.id,
        override_type: o.override_type as OverrideType,
        target_type: o.target_type as 'invariant' | 'rule',
        target_ids: o.target_ids,
        // Only grants carry it, so the state of tenants without grants hashes as before.
        ...(o.target_version_ids.length ? { target_version_ids: o.target_version_ids } : {}),
        scope_id: o.scope_id,
        scope_ids: o.scope_ids,
        applies_to_scope: (o.applies_to_scope ?? null) as ScopeSelector | null,
        conditions: o.conditions,
        expires_at: o.expires_at ? o.expires_at.toISOString() : null,
        approval_id: o.approval_id,
      })),
      principals: snapshot.principals.map((p) => ({ id: p.id, kind: p.kind as 'agent' | 'human', active: p.active, roles: p.roles })),
    };
    const expiries = snapshot.overrides.flatMap((o) => (o.expires_at ? [o.expires_at.getTime()] : []));
    const validUntil = expiries.length ? Math.min(...expiries) : Infinity;
    const state: TenantState = {
      tenant_id: tenant.id,
      tenant_slug: tenant.slug,
      revision: Number(revision),
      state_hash: sha256Digest(content),
      generated_at: now.toISOString(),
      valid_until: Number.isFinite(validUntil) ? new Date(validUntil).toISOString() : null,
      settings: content.settings,
      scopes: content.scopes,
      rules: content.rules,
      invariants: content.invariants,
      overrides: content.overrides,
      principals: content.principals,
    };
    this.remember(tenantId, { revision, validUntil, state });
    return state;
  }

  private remember(tenantId: string, entry: Cached): void {
    this.cache.delete(tenantId);
    if (this.cache.size >= MAX_CACHED_TENANTS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(tenantId, entry);
  }
}
