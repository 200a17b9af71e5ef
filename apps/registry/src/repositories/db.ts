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
