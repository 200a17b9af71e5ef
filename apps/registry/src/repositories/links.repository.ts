import type { TenantId } from '@arbiter/auth';
import type { Link as LinkRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { LinkRow };

/** Links (relations between entries); every query takes the tenant id. */
export class LinksRepository {
  constructor(private readonly db: Db) {}

  createLink(
    tenantId: TenantId,
    data: {
      id: string;
      from_id: string;
      from_type: string;
      from_scope_id: string;
      to_id: string;
      to_type: string;
      to_scope_id: string;
      relation: string;
      created_by: string | null;
    },
  ) {
    return this.db.link.create({ data: { ...data, tenant_id: tenantId } });
  }

  /** Links with the entity at either end, both ends within the scopes the key may read. */
  listLinks(tenantId: TenantId, entityId: string, relation: string | undefined, only: string[] | null, limit: number, after?: After) {
    return this.db.link.findMany({
      where: {
        tenant_id: tenantId,
        AND: [
          { OR: [{ from_id: entityId }, { to_id: entityId }] },
          ...(only ? [{ from_scope_id: { in: only } }, { to_scope_id: { in: only } }] : []),
          afterFilter(after),
        ],
        ...(relation ? { relation } : {}),
      },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }
}
