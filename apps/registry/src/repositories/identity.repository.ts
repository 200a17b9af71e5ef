import { mintTenantId, type TenantId } from '@arbiter/auth';
import type { Prisma, ApiKey as ApiKeyRow, Principal as PrincipalRow, Tenant as TenantRowBase } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

/** A tenant row; its id, read from the database, is a TenantId (the way a platform admin's call reaches another tenant). */
export type TenantRow = TenantRowBase & { id: TenantId };
export type { ApiKeyRow, PrincipalRow };
export type PrincipalSignIn = Pick<PrincipalRow, 'oidc_issuer' | 'oidc_subject' | 'console_permissions'>;
export type KeyWithOwner = ApiKeyRow & { principal: PrincipalRow; tenant: TenantRowBase };

/** Trust boundary: a tenant row the database returned names a tenant that exists. */
function vouched(row: TenantRowBase): TenantRow {
  return { ...row, id: mintTenantId(row.id) };
}

/**
 * Tenants, principals and API keys. Every principal and key query takes a TenantId, so a query
 * without a tenant does not compile (docs/development.md "Conventions"). Tenant rows are the
 * tenants themselves (tenant administration, keyed by the tenant id); the few lookups across
 * tenants say so in their names (`...AnyTenant`).
 */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  async createTenant(data: { id: string; slug: string; name: string; settings: object; created_by: string | null }): Promise<TenantRow> {
    return vouched(await this.db.tenant.create({ data: { ...data, settings: data.settings as Prisma.InputJsonValue } }));
  }

  /** The tenant of this id, if it exists: the one lookup that turns an id from a request into a TenantId. */
  async findTenant(id: string): Promise<TenantRow | null> {
    const row = await this.db.tenant.findUnique({ where: { id } });
    return row && vouched(row);
  }

  async findTenantBySlug(slug: string): Promise<TenantRow | null> {
    const row = await this.db.tenant.findUnique({ where: { slug } });
    return row && vouched(row);
  }

  /** Every tenant (a platform admin), or only `only` (anyone else: the caller's own). */
  async listTenants(limit: number, after?: After, only?: TenantId): Promise<TenantRow[]> {
    const rows = await this.db.tenant.findMany({
      where: { ...afterFilter(after), ...(only ? { id: only } : {}) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
    return rows.map(vouched);
  }

  async updateTenant(id: TenantId, data: { name?: string; settings?: object }): Promise<TenantRow> {
    const row = await this.db.tenant.update({
      where: { id },
      data: {
        ...(data.name !== undefined ? { name: data.name } : {}),
        ...(data.settings !== undefined ? { settings: data.settings as Prisma.InputJsonValue } : {}),
        updated_at: new Date(),
      },
    });
    return vouched(row);
  }

  createPrincipal(
    tenantId: TenantId,
    data: {
      id: string;
      kind: string;
      name: string;
      roles: string[];
      email?: string | null;
      created_by: string | null;
    } & Partial<PrincipalSignIn>,
  ) {
    return this.db.principal.create({ data: { ...data, tenant_id: tenantId } });
  }

  findPrincipal(tenantId: TenantId, id: string) {
    return this.db.principal.findFirst({ where: { tenant_id: tenantId, id } });
  }

  /** For platform admins only: which tenant holds this principal. */
  async findPrincipalAnyTenant(id: string): Promise<{ tenant_id: TenantId } | null> {
    const row = await this.db.principal.findUnique({ where: { id }, select: { tenant_id: true } });
    return row && { tenant_id: mintTenantId(row.tenant_id) };
  }

  /** For platform admins only: which tenant holds this key. */
  async findKeyAnyTenant(id: string): Promise<{ tenant_id: TenantId } | null> {
    const row = await this.db.apiKey.findUnique({ where: { id }, select: { tenant_id: true } });
    return row && { tenant_id: mintTenantId(row.tenant_id) };
  }

  findPrincipals(tenantId: TenantId, ids: string[]) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId, id: { in: ids } } });
  }

  /** Every principal of a tenant, by id (the verdict gateway's state: roles of deciders). */
  allPrincipals(tenantId: TenantId) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId }, orderBy: { id: 'asc' } });
  }

  listPrincipals(tenantId: TenantId, limit: number, after?: After) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId, ...afterFilter(after) }, orderBy: PAGE_ORDER, take: limit + 1 });
  }

  updatePrincipal(
    tenantId: TenantId,
    id: string,
    data: { active?: boolean; roles?: string[]; name?: string; email?: string | null } & Partial<PrincipalSignIn>,
  ) {
    return this.db.principal.update({ where: { id, tenant_id: tenantId }, data: { ...data, updated_at: new Date() } });
  }

  /** Ends every console session of a principal (deactivation: a session never outlives it, even if it comes back). */
  /**
   * A deactivated principal's console ends: its open sessions, and its outstanding sign-in links (they expire at
   * `at`), so that reactivating the principal revives neither (docs/identity.md "Sessions").
   */
  async endConsoleAccess(tenantId: TenantId, principalId: string, at: Date): Promise<void> {
    await this.db.consoleLink.updateMany({
      where: { tenant_id: tenantId, principal_id: principalId, used_at: null, expires_at: { gt: at } },
      data: { expires_at: at },
    });
    await this.db.consoleSession.updateMany({
      where: { tenant_id: tenantId, principal_id: principalId, ended_at: null },
      data: { ended_at: at },
    });
  }

  createKey(
    tenantId: TenantId,
    data: {
      id: string;
      principal_id: string;
      key_hash: string;
      key_prefix: string;
      permissions: string[];
      scope_ids: string[];
      expires_at: Date | null;
      bootstrap?: boolean;
      created_by: string | null;
    },
  ) {
    return this.db.apiKey.create({ data: { ...data, tenant_id: tenantId } });
  }

  findKey(tenantId: TenantId, id: string) {
    return this.db.apiKey.findFirst({ where: { tenant_id: tenantId, id } });
  }

  /**
   * A page of the tenant's keys; with `within`, only keys restricted to scopes all among `within` (a key of every
   * scope reaches beyond them). Prisma has no "contained by" for lists, so that case is one statement of its own.
   */
  listKeys(tenantId: TenantId, limit: number, after?: After, principalId?: string, within?: string[]): Promise<ApiKeyRow[]> {
    if (within) return this.listKeysWithin(tenantId, limit, within, after, principalId);
    return this.db.apiKey.findMany({
      where: { tenant_id: tenantId, ...(principalId ? { principal_id: principalId } : {}), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  private listKeysWithin(tenantId: TenantId, limit: number, within: string[], after?: After, principalId?: string): Promise<ApiKeyRow[]> {
    return this.db.$queryRawUnsafe<ApiKeyRow[]>(
      `SELECT * FROM "api_keys"
        WHERE "tenant_id" = $1 AND cardinality("scope_ids") > 0 AND "scope_ids" <@ $2::text[]
          AND ($3::text IS NULL OR "principal_id" = $3)
          AND ($4::timestamptz IS NULL OR ("created_at", "id") > ($4::timestamptz, $5::text))
        ORDER BY "created_at", "id"
        LIMIT $6`,
      tenantId,
      within,
      principalId ?? null,
      after?.created_at ?? null,
      after?.id ?? null,
      limit + 1,
    );
  }

  /**
   * Whether a live key of the principal holds one of `permissions` and reaches a scope outside `scopeIds`
   * (a key of every scope does).
   */
  async holdsKeyBeyond(tenantId: TenantId, principalId: string, permissions: string[], scopeIds: string[], now: Date): Promise<boolean> {
    const keys = await this.db.apiKey.findMany({
      where: {
        tenant_id: tenantId,
        principal_id: principalId,
        revoked_at: null,
        permissions: { hasSome: permissions },
        OR: [{ expires_at: null }, { expires_at: { gt: now } }],
      },
      select: { scope_ids: true },
    });
    return keys.some((k) => k.scope_ids.length === 0 || k.scope_ids.some((s) => !scopeIds.includes(s)));
  }

  /**
   * Whether an active rule in a scope outside `scopeIds` names one of `names` (a principal id or role) among its
   * deciders or its escalation deciders.
   */
  async decidesBeyond(tenantId: TenantId, names: string[], scopeIds: string[]): Promise<boolean> {
    const rule = await this.db.rule.findFirst({
      where: {
        tenant_id: tenantId,
        status: 'active',
        scope_id: { notIn: scopeIds },
        current_version: { OR: [{ deciders: { hasSome: names } }, { escalation_deciders: { hasSome: names } }] },
      },
      select: { id: true },
    });
    return rule !== null;
  }

  revokeKey(tenantId: TenantId, id: string, at: Date) {
    return this.db.apiKey.update({ where: { id, tenant_id: tenantId }, data: { revoked_at: at } });
  }

  /** Introspection (authentication): not scoped by tenant, since the key itself names its tenant. */
  findKeyByHash(keyHash: string): Promise<KeyWithOwner | null> {
    return this.db.apiKey.findUnique({ where: { key_hash: keyHash }, include: { principal: true, tenant: true } });
  }

  /** Startup: bootstrap keys other than the one configured now (README.md "Configuration": exactly that key). */
  revokeOtherBootstrapKeysAnyTenant(keepHash: string, at: Date) {
    return this.db.apiKey.updateMany({
      where: { bootstrap: true, revoked_at: null, key_hash: { not: keepHash } },
      data: { revoked_at: at },
    });
  }
}
