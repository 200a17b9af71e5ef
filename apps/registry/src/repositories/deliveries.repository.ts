import type { TenantId } from '@arbiter/auth';
import type { WebhookAttempt as AttemptRow, WebhookDelivery as DeliveryRow } from '../generated/prisma/client';
import { afterFilter, findWhereLikely, leaseDue, PAGE_ORDER, startAttemptOn, type After, type Db } from './db';

export type { AttemptRow, DeliveryRow };
export type DeliveryWithAttempts = DeliveryRow & { attempts: AttemptRow[] };

export interface NewDelivery {
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  max_attempts: number;
  /** The event's time + the tenant's retention of deliveries: a repeated fan-out of the event meets the same key. */
  keep_until: Date;
}

/** A delivery handed to the queue: the attempt the worker is to run next. */
export interface DispatchedDelivery {
  id: string;
  attempt_count: number;
}

/** The row a delivery attempt works on, locked, with its subscription's state and signing secrets. */
export type LockedDelivery = DeliveryRow & {
  sub_status: string;
  sub_deleted_at: Date | null;
  sub_url: string;
  sub_secret_ciphertext: string | null;
  sub_previous_secret_ciphertext: string | null;
  /** Whether the previous secret's overlap still runs. */
  sub_previous_in_use: boolean;
  due: boolean;
};

/** A delivery's state after a result was recorded. */
export interface RecordedDelivery {
  id: string;
  status: string;
  next_attempt_at: Date;
}

/**
 * Webhook deliveries and their attempts. The delivery state machine lives in these rows (not in
 * Redis), so a Redis outage or a lost job never loses a delivery, and the conditional updates
 * below are what make each attempt run once (ADR 0005).
 *
 * Across tenants: the outbox relay and the delivery worker (services/outbox-relay.service.ts,
 * services/webhook-delivery.service.ts) work on deliveries of every tenant, addressed by the ids the
 * registry itself created and leased; no caller's request reaches these methods.
 */
export class DeliveriesAnyTenantRepository {
  constructor(private readonly db: Db) {}

  /** One delivery per (subscription, event): a repeated fan-out adds nothing. */
  async createMany(rows: NewDelivery[]): Promise<number> {
    if (!rows.length) return 0;
    const res = await this.db.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
    return res.count;
  }

  /**
   * Due deliveries not handed out (or whose lease ran out), leased to the caller for `leaseMs`.
   * SKIP LOCKED: concurrent relays take disjoint sets.
   */
  dispatchDue(limit: number, leaseMs: number): Promise<DispatchedDelivery[]> {
    return leaseDue(this.db, 'webhook_deliveries', limit, leaseMs);
  }

  /** Ends the lease of deliveries the caller could not enqueue, so the next relay hands them out again. */
  async release(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const res = await this.db.webhookDelivery.updateMany({
      where: { id: { in: ids }, status: 'pending' },
      data: { dispatched_until: null },
    });
    return res.count;
  }

  /**
   * The delivery with its subscription's state, row-locked until the transaction ends; looked for first where
   * `likely` says (the `keep_until` values its id names), then in every partition.
   */
  lock(id: string, likely: Date[]): Promise<LockedDelivery | null> {
    return findWhereLikely(likely, async (keepUntils) => {
      const rows = await this.db.$queryRawUnsafe<LockedDelivery[]>(
        `SELECT d.*, s."status" AS sub_status, s."deleted_at" AS sub_deleted_at, s."url" AS sub_url,
                s."secret_ciphertext" AS sub_secret_ciphertext, s."previous_secret_ciphertext" AS sub_previous_secret_ciphertext,
                coalesce(s."previous_secret_expires_at" > now(), false) AS sub_previous_in_use, d."next_attempt_at" <= now() AS due
           FROM "webhook_deliveries" d JOIN "webhook_subscriptions" s ON s."id" = d."subscription_id"
          WHERE d."id" = $1${keepUntils ? ' AND d."keep_until" = ANY($2::timestamptz[])' : ''}
            FOR UPDATE OF d`,
        id,
        ...(keepUntils ? [keepUntils] : []),
      );
      return rows[0] ?? null;
    });
  }

  /**
   * Marks attempt `attempt` as started: the count moves to it and the delivery is not due again
   * before `inflightMs` (an attempt that never reports back is retried after that).
   * `keepUntil`, here and below: the delivery's, read when it was locked; its attempts have the same.
   */
  startAttempt(id: string, attempt: number, inflightMs: number, keepUntil: Date): Promise<void> {
    return startAttemptOn(this.db, 'webhook_deliveries', id, attempt, inflightMs, keepUntil);
  }

  /** Attempts of this delivery still marked in flight: their worker never reported back. */
  async interruptStale(deliveryId: string, keepUntil: Date): Promise<void> {
    await this.db.webhookAttempt.updateMany({
      where: { delivery_id: deliveryId, keep_until: keepUntil, outcome: 'in_flight' },
      data: { outcome: 'interrupted', error: 'the attempt did not report back', finished_at: new Date() },
    });
  }

  /** `keep_until`: the delivery's, so an attempt leaves with its delivery (docs/operations.md "Partitions"). */
  createAttempt(data: {
    id: string;
    tenant_id: string;
    delivery_id: string;
    subscription_id: string;
    attempt: number;
    key_id: string;
    keep_until: Date;
  }) {
    return this.db.webhookAttempt.create({ data });
  }

  async finishAttempt(
    deliveryId: string,
    attempt: number,
    data: { outcome: 'succeeded' | 'failed'; status_code: number | null; error: string | null; duration_ms: number },
    keepUntil: Date,
  ): Promise<void> {
    await this.db.webhookAttempt.updateMany({
      where: { delivery_id: deliveryId, keep_until: keepUntil, attempt, outcome: 'in_flight' },
      data: { ...data, finished_at: new Date() },
    });
  }

  /**
   * Records an attempt's result on the delivery, only while that attempt is still the current one; answers the
   * delivery's state then (null when it was not the current one). `retryInMs` null: no further attempt (succeeded or failed for good).
   */
  async recordResult(
    id: string,
    attempt: number,
    data: { status: 'pending' | 'succeeded' | 'failed'; status_code: number | null; error: string | null; retryInMs: number | null },
    keepUntil: Date,
  ): Promise<RecordedDelivery | null> {
    const rows = await this.db.$queryRawUnsafe<RecordedDelivery[]>(
      `UPDATE "webhook_deliveries"
          SET "status" = $3, "last_status_code" = $4, "last_error" = $5,
              "next_attempt_at" = CASE WHEN $6::int IS NULL THEN "next_attempt_at" ELSE now() + ($6::int * interval '1 millisecond') END,
              "delivered_at" = CASE WHEN $3 = 'succeeded' THEN now() ELSE "delivered_at" END,
              "updated_at" = now()
        WHERE "id" = $1 AND "keep_until" = $7 AND "attempt_count" = $2 AND "status" = 'pending'
        RETURNING "id", "status", "next_attempt_at"`,
      id,
      attempt,
      data.status,
      data.status_code,
      data.error,
      data.retryInMs,
      keepUntil,
    );
    return rows[0] ?? null;
  }

  async cancel(id: string, reason: string, keepUntil: Date): Promise<void> {
    await this.db.webhookDelivery.updateMany({
      where: { id, keep_until: keepUntil, status: 'pending' },
      data: { status: 'cancelled', last_error: reason, updated_at: new Date() },
    });
  }

  /** Cancels every pending delivery of a subscription (the worker disabled it after consecutive failures). */
  async cancelPendingOf(subscriptionId: string, reason: string): Promise<void> {
    await this.db.webhookDelivery.updateMany({
      where: { subscription_id: subscriptionId, status: 'pending' },
      data: { status: 'cancelled', last_error: reason, updated_at: new Date() },
    });
  }

  /** By its id, first where `likely` says (the `keep_until` values its id names, or the one it was read with). */
  findById(id: string, likely: Date[]) {
    return findWhereLikely(likely, (keepUntils) =>
      this.db.webhookDelivery.findFirst({ where: { id, ...(keepUntils ? { keep_until: { in: keepUntils } } : {}) } }),
    );
  }
}

/** A tenant's webhook deliveries, as its API shows them; every query takes the tenant id. */
export class DeliveriesRepository {
  constructor(private readonly db: Db) {}

  /** Schedules one more attempt now, allowing exactly one beyond those made (manual redelivery). */
  async redeliver(tenantId: TenantId, id: string): Promise<number> {
    const n = await this.db.$executeRawUnsafe(
      `UPDATE "webhook_deliveries"
          SET "status" = 'pending', "max_attempts" = "attempt_count" + 1, "next_attempt_at" = now(), "dispatched_until" = NULL, "updated_at" = now()
        WHERE "id" = $1 AND "tenant_id" = $2 AND "status" <> 'pending'`,
      id,
      tenantId,
    );
    return n;
  }

  /** Cancels every pending delivery of a subscription (disabled or deleted by the tenant). */
  async cancelPendingOf(tenantId: TenantId, subscriptionId: string, reason: string): Promise<void> {
    await this.db.webhookDelivery.updateMany({
      where: { tenant_id: tenantId, subscription_id: subscriptionId, status: 'pending' },
      data: { status: 'cancelled', last_error: reason, updated_at: new Date() },
    });
  }

  find(tenantId: TenantId, subscriptionId: string, id: string): Promise<DeliveryWithAttempts | null> {
    return this.db.webhookDelivery
      .findFirst({ where: { tenant_id: tenantId, subscription_id: subscriptionId, id } })
      .then(async (row) => (row ? { ...row, attempts: await this.attemptsOf(tenantId, [row.id]).then((m) => m.get(row.id) ?? []) } : null));
  }

  async list(
    tenantId: TenantId,
    subscriptionId: string,
    status: DeliveryRow['status'] | undefined,
    limit: number,
    after?: After,
  ): Promise<DeliveryWithAttempts[]> {
    const rows = await this.db.webhookDelivery.findMany({
      where: { tenant_id: tenantId, subscription_id: subscriptionId, ...(status ? { status } : {}), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
    const attempts = await this.attemptsOf(
      tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, attempts: attempts.get(r.id) ?? [] }));
  }

  private async attemptsOf(tenantId: TenantId, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
    const out = new Map<string, AttemptRow[]>();
    if (!deliveryIds.length) return out;
    const rows = await this.db.webhookAttempt.findMany({
      where: { tenant_id: tenantId, delivery_id: { in: deliveryIds } },
      orderBy: [{ delivery_id: 'asc' }, { attempt: 'asc' }],
    });
    for (const r of rows) out.set(r.delivery_id, [...(out.get(r.delivery_id) ?? []), r]);
    return out;
  }
}
