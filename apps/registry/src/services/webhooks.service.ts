import type { AuthenticatedIdentity } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { PrismaClient } from '../generated/prisma/client';
import { badRequest, conflict, notFound } from '../http/errors';
import type { Page } from '../models/identity';
import type { CreateWebhookBody, UpdateWebhookBody, WebhookDelivery, WebhookSubscription } from '../models/webhooks';
import { eventListProblems } from '../domain/webhook-events';
import { DeliveriesRepository, type DeliveryRow } from '../repositories/deliveries.repository';
import { WebhooksRepository, type SubscriptionRow } from '../repositories/webhooks.repository';
import { presentDelivery, presentSubscription } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../http/pagination';
import type { ScopeAccess } from './scope-access.service';
import { resolveWebhookTarget } from '../clients/webhook-target';

/**
 * Webhook subscriptions (docs/webhooks.md): of a scope, or of the whole tenant
 * (scope_id null, for approval routing). Creating, updating and deleting need `admin`
 * (controllers). A key restricted to some scopes sees only those scopes' subscriptions (others
 * answer 404, as scopes do) and cannot create tenant-level ones (403).
 */
export class WebhooksService {
  private readonly subs: WebhooksRepository;
  private readonly deliveries: DeliveriesRepository;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: ScopeAccess,
    private readonly opts: { allowPrivate: boolean },
  ) {
    this.subs = new WebhooksRepository(prisma);
    this.deliveries = new DeliveriesRepository(prisma);
  }

  async create(caller: AuthenticatedIdentity, scopeId: string | null, body: CreateWebhookBody): Promise<WebhookSubscription> {
    if (scopeId !== null) await this.access.scope(caller, scopeId);
    else if (this.access.only(caller)) throw new AppError(403, 'forbidden', 'A key restricted to some scopes cannot create tenant-level subscriptions');
    const events = checkEvents(body.events);
    await this.checkUrl(body.url);
    const row = await this.subs.create(caller.tenant_id, {
      id: newId('whk-'),
      scope_id: scopeId,
      url: body.url,
      events,
      description: body.description ?? null,
      deciders: [...new Set(body.deciders ?? [])],
      created_by: caller.principal.id,
    });
    return presentSubscription(row);
  }

  async list(caller: AuthenticatedIdentity, scopeId: string | null, q: PageQuery & { level?: 'tenant' | 'all' }): Promise<Page<WebhookSubscription>> {
    const { limit, after } = readPage(q);
    let rows: SubscriptionRow[];
    if (scopeId !== null) {
      const scope = await this.access.scope(caller, scopeId);
      rows = await this.subs.list(caller.tenant_id, { scope: scope.id }, limit, after);
    } else if (q.level === 'tenant') {
      rows = this.access.only(caller) ? [] : await this.subs.list(caller.tenant_id, { tenantLevel: true }, limit, after);
    } else {
      rows = await this.subs.list(caller.tenant_id, { all: true, only: this.access.only(caller) }, limit, after);
    }
    return toPage(rows, limit, presentSubscription);
  }

  async get(caller: AuthenticatedIdentity, id: string): Promise<WebhookSubscription> {
    return presentSubscription(await this.visible(caller, id));
  }

  async update(caller: AuthenticatedIdentity, id: string, body: UpdateWebhookBody): Promise<WebhookSubscription> {
    const sub = await this.visible(caller, id);
    const events = body.events !== undefined ? checkEvents(body.events) : undefined;
    if (body.url !== undefined) await this.checkUrl(body.url);
    const row = await this.prisma.$transaction(async (tx) => {
      const updated = await new WebhooksRepository(tx).update(caller.tenant_id, sub.id, {
        url: body.url,
        events,
        description: body.description,
        deciders: body.deciders ? [...new Set(body.deciders)] : undefined,
        enable: body.active === true && sub.status !== 'active',
        disable: body.active === false && sub.status === 'active' ? `disabled by ${caller.principal.id}` : undefined,
      });
      if (body.active === false) await new DeliveriesRepository(tx).cancelPendingOf(caller.tenant_id, sub.id, 'subscription disabled');
      return updated;
    });
    return presentSubscription(row);
  }

  /** Deletes the subscription (its delivery log goes with it); pending deliveries are cancelled. */
  async remove(caller: AuthenticatedIdentity, id: string): Promise<void> {
    const sub = await this.visible(caller, id);
    await this.prisma.$transaction(async (tx) => {
      await new WebhooksRepository(tx).softDelete(caller.tenant_id, sub.id);
      await new DeliveriesRepository(tx).cancelPendingOf(caller.tenant_id, sub.id, 'subscription deleted');
    });
  }

  async listDeliveries(caller: AuthenticatedIdentity, id: string, q: PageQuery & { status?: DeliveryRow['status'] }): Promise<Page<WebhookDelivery>> {
    const sub = await this.visible(caller, id);
    if (q.status !== undefined && !['pending', 'succeeded', 'failed', 'cancelled'].includes(q.status)) {
      throw badRequest('status must be pending, succeeded, failed or cancelled');
    }
    const { limit, after } = readPage(q);
    return toPage(await this.deliveries.list(caller.tenant_id, sub.id, q.status, limit, after), limit, presentDelivery);
  }

  async getDelivery(caller: AuthenticatedIdentity, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const sub = await this.visible(caller, id);
    const row = await this.deliveries.find(caller.tenant_id, sub.id, deliveryId);
    if (!row) throw notFound('Delivery', deliveryId);
    return presentDelivery(row);
  }

  /**
   * Manual redelivery: one more attempt, due now, of a delivery that is not pending (succeeded,
   * failed or cancelled); no automatic retries follow it. The worker's relay picks it up.
   */
  async redeliver(caller: AuthenticatedIdentity, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const sub = await this.visible(caller, id);
    if (sub.status !== 'active') throw conflict(`Subscription ${sub.id} is disabled; re-enable it with PATCH {"active": true} first`);
    const row = await this.deliveries.find(caller.tenant_id, sub.id, deliveryId);
    if (!row) throw notFound('Delivery', deliveryId);
    if (!(await this.deliveries.redeliver(caller.tenant_id, row.id))) throw conflict(`Delivery ${deliveryId} is already pending`);
    return presentDelivery((await this.deliveries.find(caller.tenant_id, sub.id, deliveryId))!);
  }

  private async visible(caller: AuthenticatedIdentity, id: string): Promise<SubscriptionRow> {
    const row = await this.subs.find(caller.tenant_id, id);
    const allowed = row && (row.scope_id === null ? this.access.only(caller) === null : this.access.can(caller, row.scope_id));
    if (!row || !allowed) throw notFound('Webhook subscription', id);
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    const target = await resolveWebhookTarget(url, this.opts.allowPrivate);
    if (!target.ok) throw badRequest(target.problem);
  }
}

function checkEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  const problems = eventListProblems(unique);
  if (problems.length) throw badRequest(problems.join('; '));
  return unique;
}
