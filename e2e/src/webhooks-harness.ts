// Helpers of the webhook end-to-end tests (on a stack of ./stack.ts started with FAST_WEBHOOKS): a
// tenant whose approvals make events, a receiver, and the tenant's webhook API.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin } from '../../apps/registry/test/harness';
import { startReceiver, type Receiver } from '../../apps/registry/test/receiver';
import type { Stack } from './stack';

/** Webhook settings that keep tests quick: a failed attempt is retried after 20 ms, 40 ms, ... */
export const FAST_WEBHOOKS = { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_DELAY_MS: '200' };

export interface WebhookRig {
  stack: Stack;
  /** Where the tenant's webhooks are delivered (closed when the stack stops). */
  receiver: Receiver;
  tenantId: string;
  scopeId: string;
  invariantId: string;
  /** Keys of the tenant: its admin, and an agent that may request approvals. */
  adminKey: string;
  requesterKey: string;
}

/**
 * On a stack (the registry with FAST_WEBHOOKS, and workers: the same code as apps/worker's main, minus
 * signal handling): a receiving HTTP server, and a tenant with a scope and an invariant that requires
 * approval.
 */
export async function webhookRig(stack: Stack): Promise<WebhookRig> {
  const { registry } = stack;
  const receiver = await startReceiver();
  stack.onStop(() => receiver.close());
  const t = await createTenantWithAdmin(registry, `wh-${randomUUID().slice(0, 8)}`);
  const auth = { Authorization: `Bearer ${t.admin.key}` };
  const scopeId = (await request(registry.url).post('/api/v1/scopes').set(auth).send({ name: 'main' }).expect(201)).body.id;
  const invariantId = (
    await request(registry.url)
      .post(`/api/v1/scopes/${scopeId}/invariants`)
      .set(auth)
      .send({ constraint: 'No Friday deploys', requires_approval: true })
      .expect(201)
  ).body.id;
  const requester = await createPrincipalWithKey(registry, t.admin.key, { permissions: ['read', 'write'] });
  return { stack, receiver, tenantId: t.tenant.id, scopeId, invariantId, adminKey: t.admin.key, requesterKey: requester.key };
}

/** Helpers over the rig's public API. */
export function rigApi(rig: WebhookRig) {
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  return {
    subscribe: async (body: object, path = `/api/v1/scopes/${rig.scopeId}/webhooks`) =>
      (
        await request(rig.stack.registry.url)
          .post(path)
          .set(as(rig.adminKey))
          .send({ url: rig.receiver.url, ...body })
          .expect(201)
      ).body as { id: string },
    requestApproval: async (action: string) =>
      (
        await request(rig.stack.registry.url)
          .post(`/api/v1/scopes/${rig.scopeId}/approvals`)
          .set(as(rig.requesterKey))
          .send({ trigger_id: rig.invariantId, intended_action: action })
          .expect(201)
      ).body as { id: string },
    deliveries: async (subscriptionId: string) =>
      (
        await request(rig.stack.registry.url)
          .get(`/api/v1/webhooks/${subscriptionId}/deliveries?limit=1000`)
          .set(as(rig.adminKey))
          .expect(200)
      ).body.items as Array<{
        id: string;
        status: string;
        attempt_count: number;
        attempts: Array<{ attempt: number; outcome: string; status_code: number | null }>;
      }>,
    subscriptions: async () =>
      (await request(rig.stack.registry.url).get('/api/v1/webhooks?limit=1000').set(as(rig.adminKey)).expect(200)).body.items as Array<{
        id: string;
      }>,
    unsubscribe: async (id: string) => {
      await request(rig.stack.registry.url).delete(`/api/v1/webhooks/${id}`).set(as(rig.adminKey)).expect(204);
    },
    webhookKey: async () =>
      (await request(rig.stack.registry.url).get('/.well-known/webhook-key').expect(200)).body as { kid: string; pem: string },
    events: async (type: string) =>
      (
        await request(rig.stack.registry.url)
          .get(`/api/v1/scopes/${rig.scopeId}/events?type=${type}&limit=1000`)
          .set(as(rig.adminKey))
          .expect(200)
      ).body.items as Array<Record<string, unknown>>,
  };
}
