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
    const config = loadConfig(workerConfigSchema, { REDIS_URL, QUEUE_PREFIX: prefix });
    const sut = await startWorker(config, createLogger('worker', 'silent'));
    const connection = createRedisConnection(REDIS_URL, { forWorker: false });
    const producer = createProducer(connection, { prefix });
    try {
      const job = await producer.enqueue(pingJob, { message: 'are you there?', sent_at: new Date().toISOString() });

      const result = await waitForResult(connection, job, { prefix });

      expect(sut.queues).toEqual(['system']);
      expect(result).toEqual({ pong: 'are you there?', received_at: expect.any(String) });
      expect(Number.isNaN(Date.parse((result as { received_at: string }).received_at))).toBe(false);
    } finally {
      await sut.close();
      await producer.close();
      await closeRedisConnection(connection);
    }
  });
});
