import { ConfigError } from '@arbiter/config';
import { closeOnSignals, createLogger } from '@arbiter/http';
import { loadWorkerConfig, type WorkerConfig } from './config';
import { startWorker } from './worker';

async function main(): Promise<void> {
  let config: WorkerConfig;
  try {
    config = loadWorkerConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger('worker', config.LOG_LEVEL);
  try {
    const worker = await startWorker(config, logger);
    closeOnSignals(() => worker.close(), logger);
    logger.info({ queues: worker.queues, concurrency: config.WORKER_CONCURRENCY }, 'worker started');
  } catch (err) {
    logger.fatal({ err }, 'worker failed to start');
    process.exit(1);
  }
}

void main();
