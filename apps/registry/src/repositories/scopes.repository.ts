import type { TenantId } from '@arbiter/auth';
import type { Prisma, Scope as ScopeRow, Namespace as NamespaceRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { ScopeRow, NamespaceRow };

/** Scopes and their namespaces; every query takes the tenant id. */
export class ScopesRepository {
  constructor(private readonly db: Db) {}

  create(tenantId: TenantId, data: { id: string; name: string; description: string | null; selector: object; created_by: string | null }) {
    return this.db.scope.create({ data: { ...data, tenant_id: tenantId, selector: data.selector as Prisma.InputJsonValue } });
  }

  find(tenantId: TenantId, id: string) {
    return this.db.scope.findFirst({ where: { tenant_id: tenantId, id } });
  }

  findByName(tenantId: TenantId, name: string) {
    return this.db.scope.findFirst({ where: { tenant_id: tenantId, name } });
  }

  list(tenantId: TenantId, limit: number, after: After | undefined, only: string[] | null) {
    return this.db.scope.findMany({
      where: { tenant_id: tenantId, ...(only ? { id: { in: only } } : {}), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  listAll(tenantId: TenantId) {
    return this.db.scope.findMany({ where: { tenant_id: tenantId }, orderBy: { id: 'asc' } });
  }

  findMany(tenantId: TenantId, ids: string[]) {
    return this.db.scope.findMany({ where: { tenant_id: tenantId, id: { in: ids } } });
  }

  update(tenantId: TenantId, id: string, data: { name?: string; description?: string | null; selector?: object }) {
    return this.db.scope.update({
      where: { id, tenant_id: tenantId },
      data: {
        ...(data.name !== undefined ? { name: data.name } : {}),
        ...(data.description !== undefined ? { description: data.description } : {}),
        ...(data.selector !== undefined ? { selector: data.selector as Prisma.InputJsonValue } : {}),
        version: { increment: 1 },
        updated_at: new Date(),
      },
    });
  }

  async counts(tenantId: TenantId, scopeId: string, now: Date) {
    const where = { tenant_id: tenantId, scope_id: scopeId };
    const [decisions, invariants, rules, overrides, references, namespaces] = await Promise.all([
      this.db.decision.count({ where }),
      this.db.invariant.count({ where: { ...where, status: 'active' } }),
      this.db.rule.count({ where: { ...where, status: 'active' } }),
      this.db.override.count({
        where: {
          tenant_id: tenantId,
          scope_ids: { has: scopeId },
          revoked_at: null,
          OR: [{ expires_at: null }, { expires_at: { gt: now } }],
        },
      }),
      this.db.reference.count({ where }),
      this.db.namespace.count({ where }),
    ]);
    return { decisions, invariants, rules, overrides, references, namespaces };
  }

  createNamespace(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      path: string;
      name: string;
      parent_id: string | null;
      depth: number;
      description: string | null;
      created_by: string | null;
    },
  ) {
    return this.db.namespace.create({ data: { ...data, tenant_id: tenantId } });
  }

  findNamespace(tenantId: TenantId, scopeId: string, path: string) {
    return this.db.namespace.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, path } });
  }

  listNamespaces(tenantId: TenantId, scopeId: string, limit: number, after?: After) {
    return this.db.namespace.findMany({
      where: { tenant_id: tenantId, scope_id: scopeId, ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }
}
