import { isPermission, mintTenantId, type AuthenticatedIdentity, type Identity, type Permission } from '@arbiter/auth';
import type { IdentityRepository } from '../repositories/identity.repository';
import type { ConsoleRepository } from '../repositories/console.repository';
import { keyStatus } from '../presenters/identity';
import type { TenantSettings } from '../models/identity';
import type { IntrospectionAnswer } from '../models/internal';

/** The ledger's tiers (docs/ledger-formats.md "Limits"): standard 1000/min with burst 100; a tenant's settings may set its own (enterprise). */
function rateLimitOf(settings: TenantSettings): Identity['rate_limit'] {
  const r = settings.rate_limit;
  if (!r || (r.requests_per_minute === undefined && r.burst === undefined)) return null;
  return { requests_per_minute: r.requests_per_minute ?? 1000, burst: r.burst ?? 100 };
}

/**
 * What a key hash resolves to, for every service (the registry itself and, over internal HTTP,
 * verdict and ledger). A revoked or expired key is inactive; a deactivated principal's key stays
 * active here so that each service can answer with its own code (e.g. verdict's principal_deactivated).
 */
export class IntrospectionService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly consoles: ConsoleRepository,
  ) {}

  async introspect(keyHash: string): Promise<IntrospectionAnswer> {
    const identity = await this.resolve(keyHash);
    return identity ? { active: true, identity } : { active: false };
  }

  /** The registry resolves its own callers directly from its database. */
  async resolve(keyHash: string): Promise<AuthenticatedIdentity | null> {
    const row = await this.repo.findKeyByHash(keyHash);
    if (!row) return this.resolveConsoleSession(keyHash);
    if (keyStatus(row) !== 'active') return null;
    return {
      key_id: row.id,
      // Trust boundary: the tenant of the key row the presented key's hash found.
      tenant_id: mintTenantId(row.tenant_id),
      tenant_slug: row.tenant.slug,
      principal: {
        id: row.principal.id,
        kind: row.principal.kind as 'agent' | 'human',
        name: row.principal.name,
        roles: row.principal.roles,
        active: row.principal.active,
      },
      permissions: row.permissions as Permission[],
      scope_ids: row.scope_ids,
      expires_at: row.expires_at ? row.expires_at.toISOString() : null,
      rate_limit: rateLimitOf(row.tenant.settings as TenantSettings),
    };
  }

  /**
   * A console session's credential (ADR 0029): the session's id as key_id, the principal's console_permissions read
   * now (never copied into the session), every scope, the session's end as expiry. Unlike a key, a session of a
   * deactivated principal resolves to nothing (401 everywhere): it is dead, not merely forbidden.
   */
  private async resolveConsoleSession(credentialHash: string): Promise<AuthenticatedIdentity | null> {
    const session = await this.consoles.findLiveSessionByCredentialAnyTenant(credentialHash, new Date());
    if (!session) return null;
    const principal = await this.repo.findPrincipal(session.tenant_id, session.principal_id);
    const tenant = await this.repo.findTenant(session.tenant_id);
    if (!principal || !tenant || !principal.active || principal.kind !== 'human') return null;
    return {
      key_id: session.id,
      tenant_id: session.tenant_id,
      tenant_slug: tenant.slug,
      principal: { id: principal.id, kind: 'human', name: principal.name, roles: principal.roles, active: true },
      permissions: principal.console_permissions.filter(isPermission),
      scope_ids: [],
      expires_at: session.expires_at.toISOString(),
      rate_limit: rateLimitOf(tenant.settings as TenantSettings),
    };
  }
}
