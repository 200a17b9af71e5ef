import { newId } from '@arbiter/db';
import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client';
import { notFound } from '../domain/errors';
import { retryDelayMs } from '../domain/retry-schedule';
import { signDelivery } from '../domain/webhook-signature';
import { newSecretBytes, openSecret, sealSecret } from '../domain/standard-webhooks';
import {
  DeliveriesAnyTenantRepository,
  type DeliveryRow,
  type LockedDelivery,
  type RecordedDelivery,
} from '../repositories/deliveries.repository';
import { EventsRepository, type EventRow } from '../repositories/events.repository';
import {
  SubscriptionHealthAnyTenantRepository,
  SubscriptionSecretsAnyTenantRepository,
  type SubscriptionSecrets,
} from '../repositories/webhooks.repository';
import type { AttemptReport } from '../models/internal';
import type { RetentionsInUse } from '../models/retention';
import { keepUntilsOf } from '../domain/delivery-whereabouts';
import { presentDeliveredEvent } from '../presenters/registry';
import type { WebhookKeys } from '../keys';
import type { SendResult, WebhookSender } from '../clients/webhook-sender';

export interface DeliveryOptions {
  retryBaseMs: number;
  retryMaxDelayMs: number;
  timeoutMs: number;
  maxConsecutiveFailures: number;
  /** KEY_ENCRYPTION_KEY: opens the subscriptions' Standard Webhooks secrets. */
  keyEncryptionKey: Buffer;
  /** KEY_ENCRYPTION_KEY_PREVIOUS, during its rotation: opens the secrets not yet re-encrypted. */
  previousKeyEncryptionKey?: Buffer;
}

/**
 * Runs one webhook attempt inside the registry, so the signing key's private half never leaves
 * it (docs/webhooks.md). Exactly once per (delivery, attempt):
 * 1. claim, in a transaction holding the delivery's row lock: the delivery must be pending, due,
 *    and at attempt n-1; the count moves to n and an attempt row is written (unique per
 *    (delivery, attempt)). Any second caller for n — a duplicated job, a second worker — finds
 *    the count at n and is answered `skipped` without sending anything;
 *    The subscription's Standard Webhooks secrets are read and decrypted there too: one that does
 *    not decrypt rolls the claim back, so nothing is sent unsigned (fail closed);
 * 2. sign (ECDSA and HMAC) and POST, outside any transaction, to an address checked at this
 *    attempt (the sender resolves the host again and connects only to what it checked);
 * 3. record the result and the next due time (retry schedule; none after a refused destination,
 *    which fails the delivery at once), and the subscription's failure run (disabling it at
 *    WEBHOOK_MAX_CONSECUTIVE_FAILURES).
 * An attempt that never reaches step 3 (a crash) leaves the delivery due again after the timeout
 * plus a margin; its attempt row is then marked `interrupted` and attempt n+1 runs.
 */
export class WebhookDeliveryService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly keys: WebhookKeys,
    private readonly sender: WebhookSender,
    private readonly opts: DeliveryOptions,
    private readonly logger: Logger,
    /** The retentions in use (RetentionService.hints): where a delivery's and its event's rows likely lie. */
    private readonly retentions: () => Promise<RetentionsInUse | null> = async () => null,
  ) {}

  async attempt(deliveryId: string, attempt: number): Promise<AttemptReport> {
    const signer = await this.keys.signer();
    // Where the delivery's rows and its event's lie, from the event time its id carries (docs/operations.md "A
    // webhook attempt"); once the delivery is read, its own keep_until names the partition of every later statement.
    const hints = await this.retentions();
    const likely = keepUntilsOf(deliveryId, hints?.deliveries ?? []);
    const request: ClaimRequest = { deliveryId, attempt, likely, kid: signer.kid, hints, secretsPrepared: false };
    let claim = await this.claim(request);
    if (!claim.run && claim.prepare) {
      await this.prepareSecrets(claim.prepare);
      claim = await this.claim({ ...request, secretsPrepared: true });
    }
    if (!claim.run) {
      const row = (await new DeliveriesAnyTenantRepository(this.prisma).findById(deliveryId, likely))!;
      return report(row, attempt, row.status === 'cancelled' ? 'cancelled' : 'skipped', claim.reason);
    }

    const { delivery, event, secrets } = claim;
    // The body names the tenant and the subscription, inside what both signatures cover.
    const body = JSON.stringify(presentDeliveredEvent(event, delivery.subscription_id));
    const signed = signDelivery(
      { body, eventType: event.type, deliveryId, attempt, now: new Date(), kid: signer.kid, secrets },
      signer.sign,
    );
    const result = await this.sender.send(delivery.sub_url, signed);
    return this.recordAttempt(delivery, attempt, result);
  }

  /**
   * Step 1, in one transaction. The subscription's secrets come with the delivery's locked row; when they need
   * preparing first (`prepareSecrets`) and were not prepared for this claim, nothing is claimed and the answer
   * names the subscription, so the caller prepares them outside the transaction and claims again.
   */
  private claim({ deliveryId, attempt, likely, kid, hints, secretsPrepared }: ClaimRequest): Promise<Claim> {
    return this.prisma.$transaction(async (tx): Promise<Claim> => {
      const repo = new DeliveriesAnyTenantRepository(tx);
      const d = await repo.lock(deliveryId, likely);
      if (!d) throw notFound('Delivery', deliveryId);
      if (d.status !== 'pending') return { run: false, reason: `delivery is ${d.status}` };
      if (d.attempt_count !== attempt - 1)
        return { run: false, reason: `attempt ${attempt} is not the next one (${d.attempt_count} made)` };
      if (!d.due) return { run: false, reason: 'not due yet' };
      if (d.sub_deleted_at || d.sub_status !== 'active') {
        const reason = d.sub_deleted_at ? 'subscription deleted' : 'subscription disabled';
        await repo.cancel(d.id, reason, d.keep_until);
        return { run: false, reason };
      }
      const held: SubscriptionSecrets = {
        secret_ciphertext: d.sub_secret_ciphertext,
        previous_secret_ciphertext: d.sub_previous_secret_ciphertext,
        previous_in_use: d.sub_previous_in_use,
      };
      if (!secretsPrepared && (!held.secret_ciphertext || (held.previous_secret_ciphertext && !held.previous_in_use))) {
        return { run: false, reason: 'secrets to prepare', prepare: d.subscription_id };
      }
      const secrets = this.openSecrets(d.subscription_id, held);
      // The event's partition may have been archived and dropped while the delivery waited (an events retention
      // shorter than the deliveries', then a retry or a redelivery): nothing is left to send, so the delivery ends
      // (docs/webhooks.md "Retries, the delivery log, redelivery, disabling").
      const event = await new EventsRepository(tx).findAnyTenant(d.event_id, keepUntilsOf(d.id, hints?.events ?? []));
      if (!event) {
        const reason = 'its event is no longer kept (retention)';
        await repo.cancel(d.id, reason, d.keep_until);
        return { run: false, reason };
      }
      await repo.interruptStale(d.id, d.keep_until);
      // Not due again before the attempt's own timeout is over, plus a margin for recording it.
      await repo.startAttempt(d.id, attempt, this.opts.timeoutMs + 60_000, d.keep_until);
      await repo.createAttempt({
        id: newId('wat-'),
        tenant_id: d.tenant_id,
        delivery_id: d.id,
        subscription_id: d.subscription_id,
        attempt,
        key_id: kid,
        keep_until: d.keep_until,
      });
      return { run: true, delivery: d, event, secrets };
    });
  }

  /** Step 3: the result on the attempt, the delivery and the subscription's failure run, in one transaction. */
  private recordAttempt(delivery: LockedDelivery, attempt: number, result: SendResult): Promise<AttemptReport> {
    const deliveryId = delivery.id;
    return this.prisma.$transaction(async (tx) => {
      const repo = new DeliveriesAnyTenantRepository(tx);
      const health = new SubscriptionHealthAnyTenantRepository(tx);
      await health.lock(delivery.subscription_id);
      await repo.finishAttempt(
        deliveryId,
        attempt,
        {
          outcome: result.ok ? 'succeeded' : 'failed',
          status_code: result.status_code,
          error: result.error,
          duration_ms: result.duration_ms,
        },
        delivery.keep_until,
      );
      // A refused destination (an address webhooks may not reach) is final: no retry is scheduled.
      const last = attempt >= delivery.max_attempts || !result.retryable;
      let after: RecordedDelivery | null = await repo.recordResult(
        deliveryId,
        attempt,
        {
          status: result.ok ? 'succeeded' : last ? 'failed' : 'pending',
          status_code: result.status_code,
          error: result.error,
          retryInMs: result.ok || last ? null : retryDelayMs(attempt, this.opts.retryBaseMs, this.opts.retryMaxDelayMs),
        },
        delivery.keep_until,
      );
      if (result.ok) {
        await health.success(delivery.subscription_id);
      } else {
        const h = await health.failure(delivery.subscription_id, this.opts.maxConsecutiveFailures);
        if (h.disabledNow) {
          await repo.cancelPendingOf(delivery.subscription_id, 'subscription disabled');
          after = null; // cancelled since: read below
          this.logger.warn(
            { subscription_id: delivery.subscription_id, failures: h.consecutive_failures },
            'webhook subscription disabled after consecutive failures',
          );
        }
      }
      // The state the result left, read again only when the update did not answer it (not the current attempt any
      // more) or a cancellation changed it since.
      const row = after ?? (await repo.findById(deliveryId, [delivery.keep_until]))!;
      // A failure that disabled the subscription leaves the delivery cancelled; this attempt still failed.
      const outcome = result.ok ? 'succeeded' : row.status === 'pending' ? 'retry_scheduled' : 'failed';
      return report(row, attempt, outcome, result.error, result.status_code);
    });
  }

  /**
   * Between a claim that found them unprepared and the next, each in its own statement (the claim holds the
   * delivery's row lock, and taking the subscription's row there could deadlock with a result being recorded): a
   * subscription made before secrets existed gets its first one (docs/webhooks.md "Standard
   * Webhooks"), and a previous secret whose overlap is over is forgotten.
   */
  private async prepareSecrets(subscriptionId: string): Promise<void> {
    const repo = new SubscriptionSecretsAnyTenantRepository(this.prisma);
    const row = await repo.find(subscriptionId);
    if (row && !row.secret_ciphertext) {
      const made = await repo.setFirst(subscriptionId, sealSecret(newSecretBytes(), subscriptionId, this.opts.keyEncryptionKey));
      if (made) this.logger.info({ subscription_id: subscriptionId }, 'webhook subscription without a secret got its first one');
    }
    if (row?.previous_secret_ciphertext && !row.previous_in_use) await repo.dropExpiredPrevious(subscriptionId);
  }

  /** The secrets that sign: the current one, and the previous one while its overlap runs. Throws rather than sign without. */
  private openSecrets(subscriptionId: string, row: SubscriptionSecrets | null): Buffer[] {
    if (!row?.secret_ciphertext) throw new Error(`webhook subscription ${subscriptionId} has no signing secret`);
    const open = (ciphertext: string) =>
      openSecret(ciphertext, subscriptionId, this.opts.keyEncryptionKey, this.opts.previousKeyEncryptionKey);
    const previous = row.previous_in_use && row.previous_secret_ciphertext ? [open(row.previous_secret_ciphertext)] : [];
    return [open(row.secret_ciphertext), ...previous];
  }
}

/** What one claim of an attempt needs: the delivery, where its rows likely lie, the signing key's id. */
interface ClaimRequest {
  deliveryId: string;
  attempt: number;
  /** The keep_until values of the partitions the delivery's row likely lies in. */
  likely: Date[];
  kid: string;
  hints: RetentionsInUse | null;
  /** True on the claim after `prepareSecrets`: the secrets are used as they are. */
  secretsPrepared: boolean;
}

/** What a claim came to: the attempt to run, nothing to run, or secrets to prepare before claiming again. */
type Claim = { run: true; delivery: LockedDelivery; event: EventRow; secrets: Buffer[] } | { run: false; reason: string; prepare?: string };

function report(
  row: Pick<DeliveryRow, 'id' | 'status' | 'next_attempt_at'>,
  attempt: number,
  outcome: AttemptReport['outcome'],
  error: string | null,
  statusCode: number | null = null,
): AttemptReport {
  return {
    delivery_id: row.id,
    attempt,
    outcome,
    status_code: statusCode,
    error,
    delivery_status: row.status as AttemptReport['delivery_status'],
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  };
}
