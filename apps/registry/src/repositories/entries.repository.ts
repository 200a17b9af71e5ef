import type { TenantId } from '@arbiter/auth';
import type { Decision as DecisionRow, Invariant as InvariantRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { DecisionRow, InvariantRow };

export interface DecisionFilter {
  /** A namespace and everything below it. */
  namespace?: string;
  tag?: string;
}

/** Decisions and invariants (the entries without versions, docs/registry.md "Decisions and invariants"); every query takes the tenant id. */
export class EntriesRepository {
  constructor(private readonly db: Db) {}

  createDecision(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      decision: string;
      context: string | null;
      reasoning: string | null;
      author: string;
      author_type: string;
      tags: string[];
      namespace: string | null;
      created_by: string | null;
    },
  ) {
    return this.db.decision.create({ data: { ...data, tenant_id: tenantId } });
  }

  findDecision(tenantId: TenantId, scopeId: string, id: string) {
    return this.db.decision.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, id } });
  }

  listDecisions(tenantId: TenantId, scopeId: string, filter: DecisionFilter, limit: number, after?: After) {
    const ns = filter.namespace;
    return this.db.decision.findMany({
      where: {
        tenant_id: tenantId,
        scope_id: scopeId,
        ...(filter.tag ? { tags: { has: filter.tag } } : {}),
        ...(ns ? { AND: [{ OR: [{ namespace: ns }, { namespace: { startsWith: `${ns}/` } }] }] } : {}),
        ...afterFilter(after),
      },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  createInvariant(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      constraint: string;
      rationale: string | null;
      requires_approval: boolean;
      author: string;
      author_type: string;
      created_by: string | null;
    },
  ) {
    return this.db.invariant.create({ data: { ...data, tenant_id: tenantId } });
  }

  findInvariant(tenantId: TenantId, scopeId: string, id: string) {
    return this.db.invariant.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, id } });
  }

  listInvariants(tenantId: TenantId, scopeId: string, status: 'active' | 'revoked' | 'all', limit: number, after?: After) {
    return this.db.invariant.findMany({
      where: { tenant_id: tenantId, scope_id: scopeId, ...(status === 'all' ? {} : { status }), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  /** Active invariants of one scope, or of the whole tenant, sorted by id (resolve and state). */
  activeInvariants(tenantId: TenantId, scopeId?: string) {
    return this.db.invariant.findMany({
      where: { tenant_id: tenantId, status: 'active', ...(scopeId ? { scope_id: scopeId } : {}) },
      orderBy: { id: 'asc' },
    });
  }

  /** Revokes an active invariant; answers how many rows changed (0 when already revoked). */
  async revokeInvariant(tenantId: TenantId, id: string, at: Date, by: string | null): Promise<number> {
    const res = await this.db.invariant.updateMany({
      where: { tenant_id: tenantId, id, status: 'active' },
      data: { status: 'revoked', revoked_at: at, revoked_by: by, updated_at: at },
    });
    return res.count;
  }

  findDecisions(tenantId: TenantId, ids: string[]) {
    return ids.length ? this.db.decision.findMany({ where: { tenant_id: tenantId, id: { in: ids } } }) : Promise.resolve([]);
  }

  findInvariants(tenantId: TenantId, ids: string[]) {
    return ids.length ? this.db.invariant.findMany({ where: { tenant_id: tenantId, id: { in: ids } } }) : Promise.resolve([]);
  }

  /** Any entry by id within the tenant, with its scope (references, links, overrides). */
  async findEntryScope(
    tenantId: TenantId,
    id: string,
  ): Promise<{ id: string; scope_id: string; type: 'decision' | 'invariant' | 'rule'; active: boolean } | null> {
    if (id.startsWith('dec-')) {
      const row = await this.db.decision.findFirst({ where: { tenant_id: tenantId, id }, select: { id: true, scope_id: true } });
      return row && { ...row, type: 'decision', active: true };
    }
    if (id.startsWith('inv-')) {
      const row = await this.db.invariant.findFirst({
        where: { tenant_id: tenantId, id },
        select: { id: true, scope_id: true, status: true },
      });
      return row && { id: row.id, scope_id: row.scope_id, type: 'invariant', active: row.status === 'active' };
    }
    if (id.startsWith('rul-')) {
      const row = await this.db.rule.findFirst({ where: { tenant_id: tenantId, id }, select: { id: true, scope_id: true, status: true } });
      return row && { id: row.id, scope_id: row.scope_id, type: 'rule', active: row.status === 'active' };
    }
    return null;
  }
}
