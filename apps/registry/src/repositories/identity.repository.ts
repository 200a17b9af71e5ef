import type { Prisma, PrismaClient, ApiKey as ApiKeyRow, Principal as PrincipalRow, Tenant as TenantRow } from '../generated/prisma/client';

export type { ApiKeyRow, PrincipalRow, TenantRow };
export type KeyWithOwner = ApiKeyRow & { principal: PrincipalRow; tenant: TenantRow };

/** Position after which a page starts: lists are ordered by (created_at, id). */
export interface After {
  created_at: Date;
  id: string;
}

type Db = PrismaClient | Prisma.TransactionClient;

function afterFilter(after?: After) {
  if (!after) return {};
  return {
    OR: [{ created_at: { gt: after.created_at } }, { created_at: after.created_at, id: { gt: after.id } }],
  };
}

const PAGE_ORDER = [{ created_at: 'asc' as const }, { id: 'asc' as const }];

/**
 * Tenants, principals and API keys. Every principal and key query takes the tenant id,
 * so a query without a tenant does not compile (docs/development.md "Conventions").
 */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  createTenant(data: { id: string; slug: string; name: string; settings: object; created_by: string | null }) {
    return this.db.tenant.create({ data: { ...data, settings: data.settings as Prisma.InputJsonValue } });
  }

  findTenant(id: string) {
    return this.db.tenant.findUnique({ where: { id } });
  }

  findTenantBySlug(slug: string) {
    return this.db.tenant.findUnique({ where: { slug } });
  }

  listTenants(limit: number, after?: After, only?: string) {
    return this.db.tenant.findMany({
      where: { ...afterFilter(after), ...(only ? { id: only } : {}) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  updateTenant(id: string, data: { name?: string; settings?: object }) {
    return this.db.tenant.update({
      where: { id },
      data: {
        ...(data.name !== undefined ? { name: data.name } : {}),
        ...(data.settings !== undefined ? { settings: data.settings as Prisma.InputJsonValue } : {}),
        updated_at: new Date(),
      },
    });
  }

  createPrincipal(tenantId: string, data: { id: string; kind: string; name: string; roles: string[]; created_by: string | null }) {
    return this.db.principal.create({ data: { ...data, tenant_id: tenantId } });
  }

  findPrincipal(tenantId: string, id: string) {
    return this.db.principal.findFirst({ where: { tenant_id: tenantId, id } });
  }

  /** For platform admins only: which tenant holds this principal. */
  findPrincipalAnyTenant(id: string) {
    return this.db.principal.findUnique({ where: { id }, select: { tenant_id: true } });
  }

  /** For platform admins only: which tenant holds this key. */
  findKeyAnyTenant(id: string) {
    return this.db.apiKey.findUnique({ where: { id }, select: { tenant_id: true } });
  }

  findPrincipals(tenantId: string, ids: string[]) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId, id: { in: ids } } });
  }

  /** Every principal of a tenant, by id (the verdict gateway's state: roles of deciders). */
  allPrincipals(tenantId: string) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId }, orderBy: { id: 'asc' } });
  }

  listPrincipals(tenantId: string, limit: number, after?: After) {
    return this.db.principal.findMany({ where: { tenant_id: tenantId, ...afterFilter(after) }, orderBy: PAGE_ORDER, take: limit + 1 });
  }

  updatePrincipal(tenantId: string, id: string, data: { active?: boolean; roles?: string[]; name?: string }) {
    return this.db.principal.update({ where: { id, tenant_id: tenantId }, data: { ...data, updated_at: new Date() } });
  }

  createKey(
    tenantId: string,
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

  findKey(tenantId: string, id: string) {
    return this.db.apiKey.findFirst({ where: { tenant_id: tenantId, id } });
  }

  listKeys(tenantId: string, limit: number, after?: After, principalId?: string) {
    return this.db.apiKey.findMany({
      where: { tenant_id: tenantId, ...(principalId ? { principal_id: principalId } : {}), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  revokeKey(tenantId: string, id: string, at: Date) {
    return this.db.apiKey.update({ where: { id, tenant_id: tenantId }, data: { revoked_at: at } });
  }

  /** Introspection: the one lookup not scoped by tenant, since the key itself names its tenant. */
  findKeyByHash(keyHash: string): Promise<KeyWithOwner | null> {
    return this.db.apiKey.findUnique({ where: { key_hash: keyHash }, include: { principal: true, tenant: true } });
  }

  /** Bootstrap keys other than the one configured now (README.md "Configuration": exactly that key). */
  revokeOtherBootstrapKeys(keepHash: string, at: Date) {
    return this.db.apiKey.updateMany({
      where: { bootstrap: true, revoked_at: null, key_hash: { not: keepHash } },
      data: { revoked_at: at },
    });
  }

  listBootstrapKeyHashes() {
    return this.db.apiKey.findMany({ where: { bootstrap: true }, select: { key_hash: true } });
  }
}
