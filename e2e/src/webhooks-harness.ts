import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLogger } from '@arbiter/http';
import { testRedisUrl } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import { startReceiver, type Receiver } from '../../apps/registry/test/receiver';
import type { RegistryDeps } from '../../apps/registry/src/context';
import { loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker';

export { eventually } from '../../apps/registry/test/receiver';

/** Webhook settings that keep tests quick: a failed attempt is retried after 20 ms, 40 ms, ... */
export const FAST_WEBHOOKS = { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_DELAY_MS: '200' };

export interface WebhookRig {
  registry: RegistryHarness;
  receiver: Receiver;
  redisUrl: string;
  prefix: string;
  workers: RunningWorker[];
  tenantId: string;
  scopeId: string;
  invariantId: string;
  /** Keys of the tenant: its admin, and an agent that may request approvals. */
  adminKey: string;
  requesterKey: string;
  /** Starts one more in-process worker on the rig's Redis and queue prefix. */
  addWorker(env?: Record<string, string>): Promise<RunningWorker>;
  workerEnv(): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A registry, a receiving HTTP server and in-process workers (the same code as apps/worker's
 * main, minus signal handling), on real PostgreSQL and Redis, with a tenant, a scope and an
 * invariant that requires approval.
 */
export async function startWebhookRig(
  opts: { workers?: number; redisUrl?: string; registryEnv?: Record<string, string>; registryDeps?: RegistryDeps } = {},
): Promise<WebhookRig> {
  const redisUrl = opts.redisUrl ?? testRedisUrl();
  const registry = await startTestRegistry({ REDIS_URL: redisUrl, ...FAST_WEBHOOKS, ...opts.registryEnv }, opts.registryDeps);
  const receiver = await startReceiver();
  const prefix = `arbiter-e2e-${randomUUID()}`;
  const t = await createTenantWithAdmin(registry, `wh-${randomUUID().slice(0, 8)}`);
  const auth = { Authorization: `Bearer ${t.admin.key}` };
  const scopeId = (await request(registry.url).post('/api/v1/scopes').set(auth).send({ name: 'main' }).expect(201)).body.id;
  const invariantId = (await request(registry.url).post(`/api/v1/scopes/${scopeId}/invariants`).set(auth).send({ constraint: 'No Friday deploys', requires_approval: true }).expect(201)).body.id;
  const requester = await createPrincipalWithKey(registry, t.admin.key, { permissions: ['read', 'write'] });
  const workers: RunningWorker[] = [];
  const workerEnv = () => ({
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    REGISTRY_URL: registry.url,
    // No verdict gateway or ledger in this rig: the seal relay only logs that it cannot reach them.
    VERDICT_URL: 'http://127.0.0.1:9',
    LEDGER_URL: 'http://127.0.0.1:9',
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    RELAY_INTERVAL_MS: '50',
    SHUTDOWN_GRACE_MS: '10000',
    LOG_LEVEL: 'silent',
  });
  const addWorker = async (env: Record<string, string> = {}) => {
    const worker = await startWorker(loadWorkerConfig({ ...workerEnv(), ...env }), createLogger('worker', 'silent'));
    workers.push(worker);
    return worker;
  };
  for (let i = 0; i < (opts.workers ?? 1); i++) await addWorker();
  return {
    registry,
    receiver,
    redisUrl,
    prefix,
    workers,
    tenantId: t.tenant.id,
    scopeId,
    invariantId,
    adminKey: t.admin.key,
    requesterKey: requester.key,
    addWorker,
    workerEnv,
    async stop() {
      await Promise.all(workers.map((w) => w.close()));
      await receiver.close();
      await registry.stop();
    },
  };
}

/** Helpers over the rig's public API. */
export function rigApi(rig: WebhookRig) {
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  return {
    subscribe: async (body: object, path = `/api/v1/scopes/${rig.scopeId}/webhooks`) =>
      (await request(rig.registry.url).post(path).set(as(rig.adminKey)).send({ url: rig.receiver.url, ...body }).expect(201)).body as { id: string },
    requestApproval: async (action: string) =>
      (await request(rig.registry.url).post(`/api/v1/scopes/${rig.scopeId}/approvals`).set(as(rig.requesterKey)).send({ trigger_id: rig.invariantId, intended_action: action }).expect(201))
        .body as { id: string },
    deliveries: async (subscriptionId: string) =>
      (await request(rig.registry.url).get(`/api/v1/webhooks/${subscriptionId}/deliveries?limit=1000`).set(as(rig.adminKey)).expect(200)).body.items as Array<{
        id: string;
        status: string;
        attempt_count: number;
        attempts: Array<{ attempt: number; outcome: string; status_code: number | null }>;
      }>,
    subscriptions: async () => (await request(rig.registry.url).get('/api/v1/webhooks?limit=1000').set(as(rig.adminKey)).expect(200)).body.items as Array<{ id: string }>,
    unsubscribe: async (id: string) => {
      await request(rig.registry.url).delete(`/api/v1/webhooks/${id}`).set(as(rig.adminKey)).expect(204);
    },
    webhookKey: async () => (await request(rig.registry.url).get('/.well-known/webhook-key').expect(200)).body as { kid: string; pem: string },
    events: async (type: string) =>
      (await request(rig.registry.url).get(`/api/v1/scopes/${rig.scopeId}/events?type=${type}&limit=1000`).set(as(rig.adminKey)).expect(200)).body.items as Array<Record<string, unknown>>,
  };
}
