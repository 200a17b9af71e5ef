import { closeRedisConnection, createProducer, createRedisConnection, startWorkers } from '@arbiter/queue';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import { createJobHandlers } from './jobs';
import { RegistryClient } from './registry-client';
import { OutboxRelay } from './relay';

export interface RunningWorker {
  readonly queues: readonly string[];
  /** The outbox relay loop (tests call `pass()` to relay at once). */
  readonly relay: OutboxRelay;
  /**
   * Graceful stop (SIGTERM): the relay finishes its pass and stops, then the BullMQ workers stop
   * taking jobs and wait up to SHUTDOWN_GRACE_MS for the running ones; jobs not started stay in
   * Redis for the other workers. A job cut off at the end of the grace period is retried by
   * BullMQ, and the registry answers its attempt `skipped` if it had already run.
   */
  close(): Promise<void>;
}

export async function startWorker(config: WorkerConfig, logger: Logger): Promise<RunningWorker> {
  const registry = new RegistryClient(config.REGISTRY_URL, config.INTERNAL_TOKEN, config.REGISTRY_TIMEOUT_MS);
  const connection = createRedisConnection(config.REDIS_URL, { forWorker: true, logger });
  const producerConnection = createRedisConnection(config.REDIS_URL, { forWorker: false, logger });
  const producer = createProducer(producerConnection, { prefix: config.QUEUE_PREFIX });
  const closeRedis = async () => {
    await producer.close().catch(() => undefined);
    await Promise.all([closeRedisConnection(connection), closeRedisConnection(producerConnection)]);
  };
  try {
    const workers = await startWorkers({
      connection,
      handlers: createJobHandlers({ registry }),
      concurrency: config.WORKER_CONCURRENCY,
      prefix: config.QUEUE_PREFIX,
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      logger,
    });
    const relay = new OutboxRelay(registry, producer, { intervalMs: config.RELAY_INTERVAL_MS, batchSize: config.RELAY_BATCH_SIZE }, logger);
    relay.start();
    let closing: Promise<void> | undefined;
    return {
      queues: workers.queues,
      relay,
      close: () =>
        (closing ??= (async () => {
          await relay.stop();
          await workers.close();
          await closeRedis();
        })()),
    };
  } catch (err) {
    await closeRedis();
    throw err;
  }
}
