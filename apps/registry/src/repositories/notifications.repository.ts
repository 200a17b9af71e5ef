import type { TenantId } from '@arbiter/auth';
import type { ApprovalNotification as NotificationRow } from '../generated/prisma/client';
import type { RoutedPerson } from '../domain/approval-notifications';
import { leaseDue, startAttemptOn, type Db } from './db';

export type { NotificationRow };

export interface NewNotification {
  id: string;
  event_id: string;
  approval_id: string;
  flow: string;
  scope_id: string | null;
  reason: string;
  channel: string;
  recipient: string;
  principal_id: string | null;
  max_attempts: number;
  next_attempt_at: Date;
  /** Its approval.requested event's: the row leaves after it, once not pending (docs/operations.md "Retention"). */
  keep_until: Date;
}

/** A notification handed to the queue: the attempt the worker is to run next. */
export interface DispatchedNotification {
  id: string;
  attempt_count: number;
}

/**
 * Approval notifications of one tenant (docs/approvals.md "Notifications"): written by the router in the
 * transaction that stores the approval.requested event; every query takes the tenant id.
 */
export class NotificationsRepository {
  constructor(private readonly db: Db) {}

  /** One row per (approval, reason, channel, recipient): routing the approval again adds only what is new. */
  async createMany(tenantId: TenantId, rows: NewNotification[]): Promise<number> {
    if (!rows.length) return 0;
    const res = await this.db.approvalNotification.createMany({
      data: rows.map((r) => ({ ...r, tenant_id: tenantId })),
      skipDuplicates: true,
    });
    return res.count;
  }

  /**
   * The tenant's active human principals that have an email address, with where they may approve: everywhere (a
   * console permission, or a live key valid for every scope, holding `approve`, `admin` or `platform_admin`), and
   * the scope lists of their live such keys restricted to some scopes.
   */
  people(tenantId: TenantId): Promise<RoutedPerson[]> {
    const approving = `k."tenant_id" = p."tenant_id" AND k."principal_id" = p."id" AND k."revoked_at" IS NULL
                         AND (k."expires_at" IS NULL OR k."expires_at" > now())
                         AND k."permissions" && ARRAY['approve', 'admin', 'platform_admin']::text[]`;
    return this.db.$queryRawUnsafe<RoutedPerson[]>(
      `SELECT p."id", p."kind", p."active", p."roles", p."email",
              p."console_permissions" && ARRAY['approve', 'admin', 'platform_admin']::text[]
              OR EXISTS (SELECT 1 FROM "api_keys" k WHERE ${approving} AND cardinality(k."scope_ids") = 0) AS "approves_everywhere",
              COALESCE((SELECT json_agg(k."scope_ids") FROM "api_keys" k WHERE ${approving} AND cardinality(k."scope_ids") > 0),
                       '[]'::json) AS "approves_within"
         FROM "principals" p
        WHERE p."tenant_id" = $1 AND p."kind" = 'human' AND p."active" AND p."email" IS NOT NULL
        ORDER BY p."id"`,
      tenantId,
    );
  }

  /** The scopes of the tenant's rules among `ruleIds` (a verdict approval's triggering rules). */
  async scopesOfRules(tenantId: TenantId, ruleIds: string[]): Promise<string[]> {
    if (!ruleIds.length) return [];
    const rows = await this.db.rule.findMany({ where: { tenant_id: tenantId, id: { in: ruleIds } }, select: { scope_id: true } });
    return [...new Set(rows.map((r) => r.scope_id))];
  }

  /** The settings of the tenant (its chat webhooks). */
  async settings(tenantId: TenantId): Promise<unknown> {
    return (await this.db.tenant.findUnique({ where: { id: tenantId }, select: { settings: true } }))?.settings ?? null;
  }

  /** A tenant's notifications of one approval, oldest first. */
  listOf(tenantId: TenantId, approvalId: string): Promise<NotificationRow[]> {
    return this.db.approvalNotification.findMany({
      where: { tenant_id: tenantId, approval_id: approvalId },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    });
  }
}

/**
 * Across tenants: the relay and the sender (services/outbox-relay.service.ts, services/approval-notifier.service.ts)
 * work on notifications of every tenant, addressed by the ids the registry itself created and leased; no
 * caller's request reaches these methods.
 */
export class NotificationsAnyTenantRepository {
  constructor(private readonly db: Db) {}

  /** Due notifications not handed out (or whose lease ran out), leased to the caller; SKIP LOCKED, as deliveries. */
  dispatchDue(limit: number, leaseMs: number): Promise<DispatchedNotification[]> {
    return leaseDue(this.db, 'approval_notifications', limit, leaseMs);
  }

  /** Ends the lease of notifications the caller could not enqueue. */
  async release(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const res = await this.db.approvalNotification.updateMany({
      where: { id: { in: ids }, status: 'pending' },
      data: { dispatched_until: null },
    });
    return res.count;
  }

  /** The row, locked until the transaction ends, with whether it is due. */
  async lock(id: string): Promise<(NotificationRow & { due: boolean }) | null> {
    const rows = await this.db.$queryRawUnsafe<Array<NotificationRow & { due: boolean }>>(
      `SELECT n.*, n."next_attempt_at" <= now() AS due FROM "approval_notifications" n WHERE n."id" = $1 FOR UPDATE`,
      id,
    );
    return rows[0] ?? null;
  }

  /** Attempt `attempt` starts: the count moves to it, and the row is not due again before `inflightMs`. */
  startAttempt(id: string, attempt: number, inflightMs: number): Promise<void> {
    return startAttemptOn(this.db, 'approval_notifications', id, attempt, inflightMs);
  }

  /** Records attempt `attempt`'s result while it is still the current one; `retryInMs` null: no further attempt. */
  async recordResult(
    id: string,
    attempt: number,
    data: { status: 'pending' | 'sent' | 'failed'; error: string | null; retryInMs: number | null },
  ): Promise<boolean> {
    const n = await this.db.$executeRawUnsafe(
      `UPDATE "approval_notifications"
          SET "status" = $3, "last_error" = $4,
              "next_attempt_at" = CASE WHEN $5::int IS NULL THEN "next_attempt_at" ELSE now() + ($5::int * interval '1 millisecond') END,
              "sent_at" = CASE WHEN $3 = 'sent' THEN now() ELSE "sent_at" END,
              "updated_at" = now()
        WHERE "id" = $1 AND "attempt_count" = $2 AND "status" = 'pending'`,
      id,
      attempt,
      data.status,
      data.error,
      data.retryInMs,
    );
    return n > 0;
  }

  async cancel(id: string, reason: string): Promise<void> {
    await this.db.approvalNotification.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'cancelled', last_error: reason, updated_at: new Date() },
    });
  }

  findById(id: string) {
    return this.db.approvalNotification.findUnique({ where: { id } });
  }
}
