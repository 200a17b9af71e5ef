import { retentionMs, type ArchiveKind } from '@arbiter/db';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

/** A repository runs on the client or inside a transaction (services pass the transaction). */
export type Db = PrismaClient | Prisma.TransactionClient;

/** Position after which a page starts: lists are ordered by (created_at, id). */
import type { After } from '../domain/pagination';
export type { After };

/** Lists are ordered by (created_at, id); a page starts strictly after the cursor's row. */
export function afterFilter(after?: After) {
  if (!after) return {};
  return { OR: [{ created_at: { gt: after.created_at } }, { created_at: after.created_at, id: { gt: after.id } }] };
}

export const PAGE_ORDER = [{ created_at: 'asc' as const }, { id: 'asc' as const }];

/** Scope filter of a key restricted to some scopes (null = every scope of the tenant). */
export function scopeIn(only: string[] | null) {
  return only ? { scope_id: { in: only } } : {};
}

/** Tables of outbound attempts leased to the worker's relay (ADR 0005): webhook deliveries and approval notifications. */
export type AttemptTable = 'webhook_deliveries' | 'approval_notifications';

/**
 * Due rows (pending, `next_attempt_at` passed) not handed out, or whose lease ran out, leased to the caller for
 * `leaseMs`; SKIP LOCKED, so concurrent relays take disjoint sets. Answers each row's id and attempts made.
 */
export function leaseDue(
  db: Db,
  table: AttemptTable,
  limit: number,
  leaseMs: number,
): Promise<Array<{ id: string; attempt_count: number }>> {
  return db.$queryRawUnsafe(
    `UPDATE "${table}" AS t
        SET "dispatched_until" = now() + ($2::int * interval '1 millisecond')
      WHERE t."id" IN (
            SELECT "id" FROM "${table}"
             WHERE "status" = 'pending' AND "next_attempt_at" <= now()
               AND ("dispatched_until" IS NULL OR "dispatched_until" <= now())
             ORDER BY "next_attempt_at", "id"
             LIMIT $1
             FOR UPDATE SKIP LOCKED)
    RETURNING t."id", t."attempt_count"`,
    limit,
    leaseMs,
  );
}

/**
 * Attempt `attempt` starts: the count moves to it, and the row is not due again before `inflightMs` (it did not report
 * back). `keepUntil`: the row's, when its table is partitioned by it (the statement then reads one partition).
 */
export async function startAttemptOn(
  db: Db,
  table: AttemptTable,
  id: string,
  attempt: number,
  inflightMs: number,
  keepUntil?: Date,
): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "${table}"
        SET "attempt_count" = $2, "next_attempt_at" = now() + ($3::int * interval '1 millisecond'), "dispatched_until" = NULL, "updated_at" = now()
      WHERE "id" = $1${keepUntil ? ' AND "keep_until" = $4' : ''}`,
    id,
    attempt,
    inflightMs,
    ...(keepUntil ? [keepUntil] : []),
  );
}

/**
 * A row looked up by what carries no partition key: first where it most likely lies (`likely`, the `keep_until`
 * values it would have: a lookup naming them is planned over their partitions only), then, on a miss, in every
 * partition, so a row that exists is always found.
 */
export async function findWhereLikely<T>(likely: Date[], find: (keepUntils: Date[] | null) => Promise<T | null>): Promise<T | null> {
  if (likely.length) {
    const hit = await find(likely);
    if (hit) return hit;
  }
  return find(null);
}

/**
 * Each tenant's retention of `kind` in milliseconds, from its settings (docs/operations.md "Retention"): what a row
 * written now gets as keep_until beyond its time. A tenant not found gets the default.
 */
export async function retentionsOf(db: Db, kind: ArchiveKind, tenantIds: readonly string[]): Promise<(tenantId: string) => number> {
  const rows = tenantIds.length
    ? await db.$queryRawUnsafe<Array<{ id: string; settings: unknown }>>(
        `SELECT "id", "settings" FROM "tenants" WHERE "id" = ANY($1::text[])`,
        [...new Set(tenantIds)],
      )
    : [];
  const byTenant = new Map(rows.map((r) => [r.id, retentionMs(r.settings, kind)]));
  return (tenantId) => byTenant.get(tenantId) ?? retentionMs(undefined, kind);
}
