import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client';
import { subscriptionWants } from '../domain/webhook-events';
import { newDeliveryId } from '../domain/delivery-whereabouts';
import { DeliveriesAnyTenantRepository, type NewDelivery } from '../repositories/deliveries.repository';
import { EventsRepository } from '../repositories/events.repository';
import { NotificationsAnyTenantRepository } from '../repositories/notifications.repository';
import { OutboxAnyTenantRepository } from '../repositories/outbox.repository';
import { WebhooksRepository } from '../repositories/webhooks.repository';
import { retentionsOf } from '../repositories/db';
import type { RelayAnswer } from '../models/internal';

/**
 * The registry's half of the outbox relay (ADR 0005); the worker calls it in a loop over
 * POST /internal/v1/outbox/relay and enqueues what it answers.
 * 1. Fan-out: claims outbox rows (FOR UPDATE SKIP LOCKED), creates one delivery per matching
 *    subscription and deletes the rows, in one transaction: each event is fanned out once.
 * 2. Dispatch: leases due deliveries to the caller for WEBHOOK_DISPATCH_LEASE_MS. A caller that
 *    cannot enqueue (Redis down) releases them; one that crashes lets the lease run out.
 * Neither step needs Redis, so changes and fan-out go on while it is down.
 */
export class OutboxRelayService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: { maxAttempts: number; leaseMs: number },
    private readonly logger: Logger,
  ) {}

  async relay(limit: number): Promise<RelayAnswer> {
    const fan = await this.prisma.$transaction(
      async (tx) => {
        const outbox = new OutboxAnyTenantRepository(tx);
        const rows = await outbox.claim(limit);
        if (!rows.length) return { events: 0, created: 0 };
        const events = await new EventsRepository(tx).findManyAnyTenant(rows);
        const subs = await new WebhooksRepository(tx).activeOf([...new Set(rows.map((r) => r.tenant_id))]);
        const retention = await retentionsOf(tx, 'deliveries', [...new Set(events.map((e) => e.tenant_id))]);
        const deliveries: NewDelivery[] = [];
        for (const event of events) {
          for (const sub of subs) {
            if (sub.tenant_id !== event.tenant_id || !subscriptionWants(sub, event)) continue;
            deliveries.push({
              id: newDeliveryId(event.created_at),
              tenant_id: event.tenant_id,
              subscription_id: sub.id,
              event_id: event.id,
              event_type: event.type,
              max_attempts: this.opts.maxAttempts,
              keep_until: new Date(event.created_at.getTime() + retention(event.tenant_id)),
            });
          }
        }
        const created = await new DeliveriesAnyTenantRepository(tx).createMany(deliveries);
        await outbox.remove(rows.map((r) => r.id));
        return { events: rows.length, created };
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
    const due = await new DeliveriesAnyTenantRepository(this.prisma).dispatchDue(limit, this.opts.leaseMs);
    // Approval notifications (docs/approvals.md "Notifications") are leased the same way, beside the deliveries.
    const notices = await new NotificationsAnyTenantRepository(this.prisma).dispatchDue(limit, this.opts.leaseMs);
    if (fan.events || due.length || notices.length)
      this.logger.debug(
        { fanned_out: fan.events, deliveries_created: fan.created, dispatched: due.length, notifications: notices.length },
        'outbox relayed',
      );
    return {
      fanned_out: fan.events,
      deliveries_created: fan.created,
      dispatch: due.map((d) => ({ delivery_id: d.id, attempt: d.attempt_count + 1 })),
      notifications: notices.map((n) => ({ notification_id: n.id, attempt: n.attempt_count + 1 })),
    };
  }

  /** Hands deliveries and notifications back at once (the caller could not enqueue them). */
  async release(deliveryIds: string[], notificationIds: string[] = []): Promise<{ released: number }> {
    const deliveries = await new DeliveriesAnyTenantRepository(this.prisma).release(deliveryIds);
    return { released: deliveries + (await new NotificationsAnyTenantRepository(this.prisma).release(notificationIds)) };
  }

  /** Outbox rows still waiting (tests, health). */
  pending(): Promise<number> {
    return new OutboxAnyTenantRepository(this.prisma).count();
  }
}
