import type { AuthenticatedIdentity } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { PrismaClient } from '../generated/prisma/client';
import { badRequest, conflict, notFound } from '../domain/errors';
import type { Page } from '../models/identity';
import type {
  CreatedWebhookSubscription,
  CreateWebhookBody,
  RotateWebhookSecretBody,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookSecretRotation,
  WebhookSubscription,
} from '../models/webhooks';
import { eventListProblems } from '../domain/webhook-events';
import { formatSecret, newSecretBytes, sealSecret } from '../domain/standard-webhooks';
import { DeliveriesRepository, type DeliveryRow } from '../repositories/deliveries.repository';
import { WebhooksRepository, type SubscriptionRow } from '../repositories/webhooks.repository';
import { presentDelivery, presentSubscription } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import type { ScopeAccess } from './scope-access.service';
import { resolveWebhookTarget, type TargetOptions } from '../clients/webhook-target';

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
    private readonly opts: { targets: TargetOptions; keyEncryptionKey: Buffer; secretOverlapSeconds: number },
  ) {
    this.subs = new WebhooksRepository(prisma);
    this.deliveries = new DeliveriesRepository(prisma);
  }

  /** The answer carries the subscription's Standard Webhooks secret, the only time it is shown. */
  async create(caller: AuthenticatedIdentity, scopeId: string | null, body: CreateWebhookBody): Promise<CreatedWebhookSubscription> {
    if (scopeId !== null) await this.access.scope(caller, scopeId);
    else if (this.access.only(caller))
      throw new AppError(403, 'forbidden', 'A key restricted to some scopes cannot create tenant-level subscriptions');
    const events = checkEvents(body.events);
    await this.checkUrl(body.url);
    const id = newId('whk-');
    const secret = newSecretBytes();
    const row = await this.subs.create(caller.tenant_id, {
      id,
      scope_id: scopeId,
      url: body.url,
      events,
      description: body.description ?? null,
      deciders: [...new Set(body.deciders ?? [])],
      // A restricted key's subscription gets only what its event feed shows it (docs/webhooks.md "Events").
      reach_scope_ids: caller.scope_ids,
      created_by: caller.principal.id,
      secret_ciphertext: sealSecret(secret, id, this.opts.keyEncryptionKey),
    });
    return { ...presentSubscription(row), secret: formatSecret(secret) };
  }

  /**
   * A new Standard Webhooks secret, answered this once; the replaced one signs on beside it for
   * `overlap_seconds` (default WEBHOOK_SECRET_OVERLAP_SECONDS), then is dropped (docs/webhooks.md).
   */
  async rotateSecret(caller: AuthenticatedIdentity, id: string, body: RotateWebhookSecretBody): Promise<WebhookSecretRotation> {
    const sub = await this.visible(caller, id);
    const overlap = body.overlap_seconds ?? this.opts.secretOverlapSeconds;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > 604_800)
      throw badRequest('overlap_seconds must be an integer from 0 to 604800');
    const secret = newSecretBytes();
    const row = await this.subs.rotateSecret(caller.tenant_id, sub.id, sealSecret(secret, sub.id, this.opts.keyEncryptionKey), overlap);
    if (!row) throw notFound('Webhook subscription', id);
    const presented = presentSubscription(row);
    return {
      subscription_id: row.id,
      secret: formatSecret(secret),
      secret_created_at: presented.secret_created_at!,
      previous_secret_expires_at: presented.previous_secret_expires_at,
    };
  }

  async list(
    caller: AuthenticatedIdentity,
    scopeId: string | null,
    q: PageQuery & { level?: 'tenant' | 'all' },
  ): Promise<Page<WebhookSubscription>> {
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
        // A restricted key that changes where the events go, or which, narrows them to what it may see.
        reach_scope_ids: caller.scope_ids.length && (body.url !== undefined || events !== undefined) ? caller.scope_ids : undefined,
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

  async listDeliveries(
    caller: AuthenticatedIdentity,
    id: string,
    q: PageQuery & { status?: DeliveryRow['status'] },
  ): Promise<Page<WebhookDelivery>> {
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
    const target = await resolveWebhookTarget(url, this.opts.targets);
    if (!target.ok) throw badRequest(target.problem);
  }
}

function checkEvents(events: string[]): string[] {
  const unique = [...new Set(events)];
  const problems = eventListProblems(unique);
  if (problems.length) throw badRequest(problems.join('; '));
  return unique;
}
