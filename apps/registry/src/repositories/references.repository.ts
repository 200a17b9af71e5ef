import type { TenantId } from '@arbiter/auth';
import type { Reference as ReferenceRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, scopeIn, type After, type Db } from './db';

export type { ReferenceRow };

/** References (how an entry was used in an external context); every query takes the tenant id. */
export class ReferencesRepository {
  constructor(private readonly db: Db) {}

  create(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      entry_id: string;
      entry_type: string;
      context_type: string;
      context_ref: string;
      status: string;
      reason: string | null;
      author: string;
      author_type: string;
      created_by: string | null;
    },
  ) {
    return this.db.reference.create({ data: { ...data, tenant_id: tenantId } });
  }

  list(
    tenantId: TenantId,
    filter: { scope_id?: string; entry_id?: string; context_ref?: string; status?: string },
    only: string[] | null,
    limit: number,
    after?: After,
  ) {
    return this.db.reference.findMany({
      where: {
        tenant_id: tenantId,
        ...(filter.scope_id ? { scope_id: filter.scope_id } : scopeIn(only)),
        ...(filter.entry_id ? { entry_id: filter.entry_id } : {}),
        ...(filter.context_ref ? { context_ref: filter.context_ref } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...afterFilter(after),
      },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }
}
