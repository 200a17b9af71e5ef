import { closeRedisConnection, createRedisConnection, startWorkers } from '@arbiter/queue';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import { jobHandlers } from './jobs';

export interface RunningWorker {
  readonly queues: readonly string[];
  /** Stops taking jobs, waits for running ones up to SHUTDOWN_GRACE_MS, closes Redis. */
  close(): Promise<void>;
}

export async function startWorker(config: WorkerConfig, logger: Logger): Promise<RunningWorker> {
  const connection = createRedisConnection(config.REDIS_URL, { forWorker: true, logger });
  try {
    const workers = await startWorkers({
      connection,
      handlers: jobHandlers,
      concurrency: config.WORKER_CONCURRENCY,
      prefix: config.QUEUE_PREFIX,
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      logger,
    });
    return {
      queues: workers.queues,
      async close() {
        await workers.close();
        await closeRedisConnection(connection);
      },
    };
  } catch (err) {
    await closeRedisConnection(connection);
    throw err;
  }
}
