import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startRedis, type RedisHandle } from '@arbiter/devstack';
import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from './webhooks-harness';
import { startStack, type Stack } from './stack';

/**
 * README.md "Architecture": "A Redis outage delays notifications; it never loses them." A dedicated
 * redis-server (not the shared test one) is stopped and started again on the same port; the
 * registry and the worker use only it.
 */
describe('webhooks across a Redis outage', () => {
  let dir: string;
  let port: number;
  let redis: RedisHandle;
  let stack: Stack;
  let rig: WebhookRig;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-redis-outage-'));
    port = await findFreePort();
    redis = await startRedis({ dir, port });
    stack = await startStack({ registry: { env: FAST_WEBHOOKS }, worker: true, redisUrl: redis.url });
    rig = await webhookRig(stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts changes while Redis is down and delivers their notifications once it is back', async () => {
    const a = rigApi(rig);
    const sub = await a.subscribe({ events: ['approval.requested'] });
    const before = await a.requestApproval('before the outage');
    await eventually('the first delivery', () => rig.receiver.received.find((r) => (r.body.data as { id: string }).id === before.id));

    await redis.stop();
    const during = [];
    for (const action of ['during 1', 'during 2', 'during 3']) during.push(await a.requestApproval(action));
    // The relay still fans the outbox out (it needs only PostgreSQL); nothing can be enqueued, so nothing is sent.
    const waiting = await eventually('the deliveries of the outage', async () => {
      const ds = (await a.deliveries(sub.id)).filter((d) => d.status === 'pending');
      return ds.length === during.length ? ds : undefined;
    });
    expect(waiting.every((d) => d.attempt_count === 0)).toBe(true);

    redis = await startRedis({ dir, port });
    const delivered = await eventually(
      'every delivery after the outage',
      async () => {
        const ds = await a.deliveries(sub.id);
        return ds.length === 1 + during.length && ds.every((d) => d.status === 'succeeded') ? ds : undefined;
      },
      { timeoutMs: 60_000 },
    );

    expect(delivered.every((d) => d.attempt_count === 1)).toBe(true);
    const ids = rig.receiver.received.map((r) => (r.body.data as { id: string }).id);
    for (const x of [before, ...during]) expect(ids.filter((id) => id === x.id)).toHaveLength(1);
  });
});
