import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { findFreePort } from '@arbiter/devstack';
import { createLogger } from '@arbiter/http';
import { closeRedisConnection, createProducer, createRedisConnection, queueDepths } from '@arbiter/queue';
import type { RegistryInternalClient, RelayAnswer } from '@arbiter/internal-api';
import { OutboxRelay } from './relay';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) throw new Error('REDIS_URL is not set: run under the root jest config (its global setup starts Redis) or set it');

/** A registry that hands out the same due deliveries on every pass and records what comes back. */
function fakeRegistry(dispatch: RelayAnswer['dispatch'], notifications: RelayAnswer['notifications'] = []) {
  const released: string[][] = [];
  const client = {
    relay: async (): Promise<RelayAnswer> => ({ fanned_out: 0, deliveries_created: 0, dispatch, notifications }),
    release: async (ids: string[], notificationIds: string[] = []) => {
      released.push(notificationIds.length ? [...ids, ...notificationIds] : ids);
      return { released: ids.length + notificationIds.length };
    },
  };
  return { client: client as unknown as RegistryInternalClient, released };
}

describe(OutboxRelay.name, () => {
  const logger = createLogger('worker', 'silent');
  const dispatch = [
    { delivery_id: 'dlv-0123456789abcdef01234567', attempt: 1 },
    { delivery_id: 'dlv-89abcdef0123456789abcdef', attempt: 3 },
  ];

  it('enqueues each dispatched attempt once under `<delivery_id>.<attempt>`, however often it is handed out', async () => {
    const prefix = `arbiter-test-${randomUUID()}`;
    const connection = createRedisConnection(REDIS_URL, { forWorker: false });
    const producer = createProducer(connection, { prefix });
    const registry = fakeRegistry(dispatch);
    const sut = new OutboxRelay(registry.client, producer, { intervalMs: 1000, batchSize: 100 }, logger);
    const queue = new Queue('webhook', { connection, prefix });
    try {
      const first = await sut.pass();
      const second = await sut.pass();

      expect(first).toEqual({ dispatched: 2, enqueued: 2, released: 0 });
      expect(second).toEqual({ dispatched: 2, enqueued: 2, released: 0 });
      expect((await queueDepths(connection, { prefix })).webhook.waiting).toBe(2);
      const jobs = await queue.getJobs(['wait']);
      expect(jobs.map((j) => [j.id, j.name, j.data]).sort()).toEqual([
        ['dlv-0123456789abcdef01234567.1', 'webhook.v1.deliver', dispatch[0]],
        ['dlv-89abcdef0123456789abcdef.3', 'webhook.v1.deliver', dispatch[1]],
      ]);
      expect(registry.released).toEqual([]);
    } finally {
      await queue.close();
      await producer.close();
      await closeRedisConnection(connection);
    }
  });

  it('hands the deliveries back to the registry when Redis cannot be reached', async () => {
    const connection = createRedisConnection(`redis://127.0.0.1:${await findFreePort()}`, { forWorker: false });
    connection.on('error', () => undefined);
    const producer = createProducer(connection, { readyTimeoutMs: 200 });
    const registry = fakeRegistry(dispatch);
    const sut = new OutboxRelay(registry.client, producer, { intervalMs: 1000, batchSize: 100 }, logger);
    try {
      const result = await sut.pass();

      expect(result).toEqual({ dispatched: 2, enqueued: 0, released: 2 });
      expect(registry.released).toEqual([dispatch.map((d) => d.delivery_id)]);
    } finally {
      await producer.close();
      await closeRedisConnection(connection);
    }
  });

  const notifications = [{ notification_id: 'ntf-0123456789abcdef01234567', attempt: 2 }];

  it('enqueues approval notifications as notification.v1.send under `<notification_id>.<attempt>`', async () => {
    const prefix = `arbiter-test-${randomUUID()}`;
    const connection = createRedisConnection(REDIS_URL, { forWorker: false });
    const producer = createProducer(connection, { prefix });
    const registry = fakeRegistry([], notifications);
    const sut = new OutboxRelay(registry.client, producer, { intervalMs: 1000, batchSize: 100 }, logger);
    const queue = new Queue('notification', { connection, prefix });
    try {
      expect(await sut.pass()).toEqual({ dispatched: 1, enqueued: 1, released: 0 });
      expect(await sut.pass()).toEqual({ dispatched: 1, enqueued: 1, released: 0 });
      const jobs = await queue.getJobs(['wait']);
      expect(jobs.map((j) => [j.id, j.name, j.data])).toEqual([
        ['ntf-0123456789abcdef01234567.2', 'notification.v1.send', notifications[0]],
      ]);
    } finally {
      await queue.close();
      await producer.close();
      await closeRedisConnection(connection);
    }
  });

  it('hands notifications back with the deliveries when Redis cannot be reached', async () => {
    const connection = createRedisConnection(`redis://127.0.0.1:${await findFreePort()}`, { forWorker: false });
    connection.on('error', () => undefined);
    const producer = createProducer(connection, { readyTimeoutMs: 200 });
    const registry = fakeRegistry(dispatch, notifications);
    const sut = new OutboxRelay(registry.client, producer, { intervalMs: 1000, batchSize: 100 }, logger);
    try {
      expect(await sut.pass()).toEqual({ dispatched: 3, enqueued: 0, released: 3 });
      expect(registry.released).toEqual([[...dispatch.map((d) => d.delivery_id), 'ntf-0123456789abcdef01234567']]);
    } finally {
      await producer.close();
      await closeRedisConnection(connection);
    }
  });
});
