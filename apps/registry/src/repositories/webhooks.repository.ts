import type { TenantId } from '@arbiter/auth';
import type { WebhookSubscription as SubscriptionRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { SubscriptionRow };

/** Which subscriptions a list shows: one scope, tenant-level only, or all (optionally within some scopes). */
export type SubscriptionScope = { scope: string } | { tenantLevel: true } | { all: true; only: string[] | null };

/** Webhook subscriptions; every query takes the tenant id, and a deleted subscription is never found. */
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  create(
    tenantId: TenantId,
    data: Pick<SubscriptionRow, 'id' | 'scope_id' | 'url' | 'events' | 'description' | 'deciders' | 'created_by' | 'reach_scope_ids'> & {
      secret_ciphertext: string;
    },
  ) {
    return this.db.webhookSubscription.create({ data: { ...data, tenant_id: tenantId, secret_created_at: new Date() } });
  }

  find(tenantId: TenantId, id: string) {
    return this.db.webhookSubscription.findFirst({ where: { tenant_id: tenantId, id, deleted_at: null } });
  }

  list(tenantId: TenantId, which: SubscriptionScope, limit: number, after?: After) {
    const scope =
      'scope' in which
        ? { scope_id: which.scope }
        : 'tenantLevel' in which
          ? { scope_id: null }
          : which.only
            ? { scope_id: { in: which.only } }
            : {};
    return this.db.webhookSubscription.findMany({
      where: { tenant_id: tenantId, deleted_at: null, ...scope, ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  update(
    tenantId: TenantId,
    id: string,
    data: Partial<{ url: string; events: string[]; description: string | null; deciders: string[]; reach_scope_ids: string[] }> & {
      enable?: boolean;
      disable?: string;
    },
  ) {
    const now = new Date();
    return this.db.webhookSubscription.update({
      where: { id, tenant_id: tenantId },
      data: {
        ...(data.url !== undefined ? { url: data.url } : {}),
        ...(data.events !== undefined ? { events: data.events } : {}),
        ...(data.description !== undefined ? { description: data.description } : {}),
        ...(data.deciders !== undefined ? { deciders: data.deciders } : {}),
        ...(data.reach_scope_ids !== undefined ? { reach_scope_ids: data.reach_scope_ids } : {}),
        ...(data.enable ? { status: 'active', consecutive_failures: 0, disabled_at: null, disabled_reason: null } : {}),
        ...(data.disable ? { status: 'disabled', disabled_at: now, disabled_reason: data.disable } : {}),
        version: { increment: 1 },
        updated_at: now,
      },
    });
  }

  async softDelete(tenantId: TenantId, id: string): Promise<void> {
    const now = new Date();
    await this.db.webhookSubscription.updateMany({
      where: { tenant_id: tenantId, id, deleted_at: null },
      data: { deleted_at: now, updated_at: now },
    });
  }

  /**
   * Makes `ciphertext` the current secret. The one it replaces signs on for `overlapSeconds` (none
   * when 0, or when there was none); a previous secret of an earlier rotation is dropped. One
   * statement: the right-hand sides read the row as it was, so concurrent rotations serialise on it.
   */
  async rotateSecret(tenantId: TenantId, id: string, ciphertext: string, overlapSeconds: number): Promise<SubscriptionRow | null> {
    const rows = await this.db.$queryRawUnsafe<SubscriptionRow[]>(
      `UPDATE "webhook_subscriptions"
          SET "previous_secret_ciphertext" = CASE WHEN $4::int > 0 THEN "secret_ciphertext" END,
              "previous_secret_expires_at" = CASE WHEN $4::int > 0 AND "secret_ciphertext" IS NOT NULL THEN now() + $4::int * interval '1 second' END,
              "secret_ciphertext" = $3,
              "secret_created_at" = now(),
              "version" = "version" + 1,
              "updated_at" = now()
        WHERE "tenant_id" = $1 AND "id" = $2 AND "deleted_at" IS NULL
      RETURNING *`,
      tenantId,
      id,
      ciphertext,
      overlapSeconds,
    );
    return rows[0] ?? null;
  }

  /** Active subscriptions of these tenants (the relay's fan-out, with the tenants of its outbox rows). */
  activeOf(tenantIds: TenantId[]) {
    return tenantIds.length
      ? this.db.webhookSubscription.findMany({ where: { tenant_id: { in: tenantIds }, deleted_at: null, status: 'active' } })
      : Promise.resolve([]);
  }
}

/** The secrets a delivery attempt signs with (ciphertexts; see domain/standard-webhooks.ts). */
export interface SubscriptionSecrets {
  secret_ciphertext: string | null;
  previous_secret_ciphertext: string | null;
  /** Whether the previous secret's overlap still runs (by the database clock, which also set its end). */
  previous_in_use: boolean;
}

/**
 * The Standard Webhooks secrets of a subscription, for the delivery worker
 * (services/webhook-delivery.service.ts), which addresses the subscription of a delivery it has
 * locked by id, across tenants.
 */
export class SubscriptionSecretsAnyTenantRepository {
  constructor(private readonly db: Db) {}

  async find(id: string): Promise<SubscriptionSecrets | null> {
    const rows = await this.db.$queryRawUnsafe<SubscriptionSecrets[]>(
      `SELECT "secret_ciphertext", "previous_secret_ciphertext", coalesce("previous_secret_expires_at" > now(), false) AS previous_in_use
         FROM "webhook_subscriptions" WHERE "id" = $1`,
      id,
    );
    return rows[0] ?? null;
  }

  /** Gives a subscription made before secrets existed its first one; false when it already had one (a concurrent attempt won). */
  async setFirst(id: string, ciphertext: string): Promise<boolean> {
    const n = await this.db.$executeRawUnsafe(
      `UPDATE "webhook_subscriptions" SET "secret_ciphertext" = $2, "secret_created_at" = now() WHERE "id" = $1 AND "secret_ciphertext" IS NULL`,
      id,
      ciphertext,
    );
    return n === 1;
  }

  /** Every subscription's secret ciphertexts, of every tenant, the rows locked until the transaction ends (`keys reencrypt`). */
  async allCiphertextsForUpdate(): Promise<
    Array<{ id: string; secret_ciphertext: string | null; previous_secret_ciphertext: string | null }>
  > {
    return this.db.$queryRawUnsafe(
      `SELECT "id", "secret_ciphertext", "previous_secret_ciphertext" FROM "webhook_subscriptions"
        WHERE "secret_ciphertext" IS NOT NULL OR "previous_secret_ciphertext" IS NOT NULL ORDER BY "id" FOR UPDATE`,
    );
  }

  /** Replaces both ciphertexts of a subscription (the same secrets under another KEY_ENCRYPTION_KEY). */
  async replaceCiphertexts(id: string, secret: string | null, previous: string | null): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE "webhook_subscriptions" SET "secret_ciphertext" = $2, "previous_secret_ciphertext" = $3 WHERE "id" = $1`,
      id,
      secret,
      previous,
    );
  }

  /** Forgets a previous secret whose overlap is over. */
  async dropExpiredPrevious(id: string): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE "webhook_subscriptions" SET "previous_secret_ciphertext" = NULL, "previous_secret_expires_at" = NULL
        WHERE "id" = $1 AND "previous_secret_expires_at" <= now()`,
      id,
    );
  }
}

/** What one attempt's result did to its subscription. */
export interface SubscriptionHealth {
  status: string;
  consecutive_failures: number;
}

/**
 * Failure bookkeeping of a subscription, separate from the list/CRUD queries above. Across tenants:
 * the delivery worker (services/webhook-delivery.service.ts) addresses the subscription of a
 * delivery it has locked by id.
 */
export class SubscriptionHealthAnyTenantRepository {
  constructor(private readonly db: Db) {}

  /**
   * Locks the subscription row for the rest of the transaction. Taken first by every transaction
   * that records an attempt's result, so they serialise on it and never wait on one another's
   * delivery rows in the opposite order (disabling cancels the other pending deliveries).
   */
  async lock(id: string): Promise<void> {
    await this.db.$queryRawUnsafe(`SELECT 1 FROM "webhook_subscriptions" WHERE "id" = $1 FOR UPDATE`, id);
  }

  async success(id: string): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE "webhook_subscriptions" SET "consecutive_failures" = 0, "last_success_at" = now() WHERE "id" = $1`,
      id,
    );
  }

  /**
   * Counts a failed attempt; the one that reaches `max` in a row disables the subscription
   * (WEBHOOK_MAX_CONSECUTIVE_FAILURES). Run it in a transaction: the row stays locked from the
   * read to the write, so concurrent attempts count one after the other.
   */
  async failure(id: string, max: number): Promise<SubscriptionHealth & { disabledNow: boolean }> {
    const rows = await this.db.$queryRawUnsafe<SubscriptionHealth[]>(
      `SELECT "status", "consecutive_failures" FROM "webhook_subscriptions" WHERE "id" = $1 FOR UPDATE`,
      id,
    );
    const row = rows[0];
    if (!row) return { status: 'disabled', consecutive_failures: 0, disabledNow: false };
    const failures = row.consecutive_failures + 1;
    const disabledNow = row.status === 'active' && failures >= max;
    await this.db.webhookSubscription.update({
      where: { id },
      data: {
        consecutive_failures: failures,
        last_failure_at: new Date(),
        ...(disabledNow ? { status: 'disabled', disabled_at: new Date(), disabled_reason: `${max} consecutive failed attempts` } : {}),
      },
    });
    return { status: disabledNow ? 'disabled' : row.status, consecutive_failures: failures, disabledNow };
  }
}
