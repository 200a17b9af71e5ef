import type { TenantId } from '@arbiter/auth';
import { Prisma, type Override as OverrideRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { OverrideRow };
export type OverrideStatusFilter = 'active' | 'expired' | 'revoked' | 'invalid_conditions' | 'all';

/** Where clause of an override status at `now` (status is computed, never stored). */
export function overrideStatusWhere(status: OverrideStatusFilter, now: Date): Prisma.OverrideWhereInput {
  switch (status) {
    case 'active':
      return { revoked_at: null, conditions_error: null, OR: [{ expires_at: null }, { expires_at: { gt: now } }] };
    case 'expired':
      return { revoked_at: null, conditions_error: null, expires_at: { lte: now } };
    case 'invalid_conditions':
      return { revoked_at: null, conditions_error: { not: null } };
    case 'revoked':
      return { revoked_at: { not: null } };
    case 'all':
      return {};
  }
}

/** Overrides; every query takes the tenant id. A scope's overrides are those whose scope_ids hold it. */
export class OverridesRepository {
  constructor(private readonly db: Db) {}

  create(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      scope_ids: string[];
      target_id: string;
      target_ids: string[];
      /** Approval grants: the rule versions lifted (docs/approvals.md "Grants"); absent or empty: any version. */
      target_version_ids?: string[];
      target_type: string;
      override_type: string;
      justification: string;
      conditions: string | null;
      /** Why the conditions can never hold (written only by the startup check of old rows); null = valid. */
      conditions_error?: string | null;
      approved_by: string | null;
      applies_to_scope: object | null;
      expires_at: Date | null;
      approval_id: string | null;
      consultation_id: string | null;
      created_by: string | null;
    },
  ) {
    return this.db.override.create({
      data: {
        ...data,
        conditions_error: data.conditions_error ?? null,
        // Every row written through the API had its conditions compiled first.
        conditions_checked: true,
        tenant_id: tenantId,
        applies_to_scope: data.applies_to_scope === null ? Prisma.DbNull : (data.applies_to_scope as Prisma.InputJsonValue),
      },
    });
  }

  find(tenantId: TenantId, scopeId: string, id: string) {
    return this.db.override.findFirst({ where: { tenant_id: tenantId, id, scope_ids: { has: scopeId } } });
  }

  list(tenantId: TenantId, scopeId: string, status: OverrideStatusFilter, now: Date, limit: number, after?: After) {
    return this.db.override.findMany({
      where: { tenant_id: tenantId, scope_ids: { has: scopeId }, AND: [overrideStatusWhere(status, now), afterFilter(after)] },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  /** Overrides in effect at `now`, of one scope or the whole tenant, sorted by id. */
  effective(tenantId: TenantId, now: Date, scopeId?: string) {
    return this.db.override.findMany({
      where: { tenant_id: tenantId, ...(scopeId ? { scope_ids: { has: scopeId } } : {}), ...overrideStatusWhere('active', now) },
      orderBy: { id: 'asc' },
    });
  }

  /**
   * The bytes of the tenant's effective overrides (active, as the tenant state carries them: not revoked, conditions
   * valid, not expired at `now`), each row written as JSON (docs/registry.md "Limits").
   */
  async effectiveBytes(tenantId: TenantId, now: Date): Promise<number> {
    const [{ bytes }] = await this.db.$queryRawUnsafe<Array<{ bytes: bigint }>>(
      `SELECT COALESCE(sum(octet_length(row_to_json(o)::text)), 0)::bigint AS bytes
         FROM "overrides" o
        WHERE o."tenant_id" = $1 AND o."revoked_at" IS NULL AND o."conditions_error" IS NULL
          AND (o."expires_at" IS NULL OR o."expires_at" > $2)`,
      tenantId,
      now,
    );
    return Number(bytes);
  }

  /** Revokes an override unless already revoked; answers how many rows changed. */
  async revoke(tenantId: TenantId, id: string, at: Date, by: string | null): Promise<number> {
    const res = await this.db.override.updateMany({
      where: { tenant_id: tenantId, id, revoked_at: null },
      data: { revoked_at: at, revoked_by: by, updated_at: at },
    });
    return res.count;
  }
}
