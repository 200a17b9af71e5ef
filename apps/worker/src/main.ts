import { runMain } from '@arbiter/http';
import { loadWorkerConfig } from './config';
import { startWorker } from './worker';

runMain(
  'worker',
  () => loadWorkerConfig(),
  async (config, logger) => {
    const worker = await startWorker(config, logger);
    return { close: () => worker.close(), logFields: { queues: worker.queues, concurrency: config.WORKER_CONCURRENCY } };
  },
);
