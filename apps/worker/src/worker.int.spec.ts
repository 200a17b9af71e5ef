import { randomUUID } from 'node:crypto';
import { loadConfig } from '@arbiter/config';
import { createLogger } from '@arbiter/http';
import { closeRedisConnection, createProducer, createRedisConnection, pingJob, waitForResult } from '@arbiter/queue';
import { workerConfigSchema } from './config';
import { startWorker } from './worker';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) throw new Error('REDIS_URL is not set: run under the root jest config (its global setup starts Redis) or set it');

describe(startWorker.name, () => {
  it('answers a ping enqueued by a producer, then closes', async () => {
    const prefix = `arbiter-test-${randomUUID()}`;
    // No registry, verdict or ledger here: the relay loops only log that they cannot reach them (e2e/src/webhooks*.e2e.spec.ts run it for real).
    const config = loadConfig(workerConfigSchema, {
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      REGISTRY_URL: 'http://127.0.0.1:9',
      VERDICT_URL: 'http://127.0.0.1:9',
      LEDGER_URL: 'http://127.0.0.1:9',
      INTERNAL_TOKEN: 'test-internal-token-0123456789',
      RELAY_INTERVAL_MS: '60000',
      METRICS_PORT: '0',
    });
    const sut = await startWorker(config, createLogger('worker', 'silent'));
    const connection = createRedisConnection(REDIS_URL, { forWorker: false });
    const producer = createProducer(connection, { prefix });
    try {
      const job = await producer.enqueue(pingJob, { message: 'are you there?', sent_at: new Date().toISOString() });

      const result = await waitForResult(connection, job, { prefix });

      expect(sut.queues).toEqual(['system', 'webhook', 'ledger', 'notification', 'maintenance']);
      expect(result).toEqual({ pong: 'are you there?', received_at: expect.any(String) });
      expect(Number.isNaN(Date.parse((result as { received_at: string }).received_at))).toBe(false);

      // The ops endpoint: ready while Redis answers, and the job and queue series on /metrics.
      expect((await fetch(`${sut.ops!.url}/readyz`)).status).toBe(200);
      const metrics = await (await fetch(`${sut.ops!.url}/metrics`)).text();
      expect(metrics).toMatch(/arbiter_jobs_total\{[^}]*job="system.v1.ping"[^}]*result="completed"[^}]*\} 1/);
      expect(metrics).toMatch(/arbiter_queue_jobs\{[^}]*queue="system"[^}]*state="waiting"[^}]*\} 0/);
    } finally {
      await sut.close();
      await producer.close();
      await closeRedisConnection(connection);
    }
  });
});
