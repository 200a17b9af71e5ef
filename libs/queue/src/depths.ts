import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobCatalog } from './catalog';
import { queuesOf, type JobCatalog } from './job-catalog';
import { DEFAULT_PREFIX } from './prefix';

export interface QueueDepth {
  /** Ready to run (BullMQ `wait` plus `prioritized`). */
  waiting: number;
  active: number;
  /** Scheduled later: delayed enqueues and retries in backoff. */
  delayed: number;
  /** Failed for good, kept for inspection (removeOnFail retention). */
  failed: number;
}

/** Job counts per catalog queue, for metrics. Read-only: the queues' metadata is not touched. */
export async function queueDepths(
  connection: Redis,
  opts: { prefix?: string; catalog?: JobCatalog } = {},
): Promise<Record<string, QueueDepth>> {
  const names = queuesOf(opts.catalog ?? jobCatalog);
  const queues = names.map((name) => new Queue(name, { connection, prefix: opts.prefix ?? DEFAULT_PREFIX, skipMetasUpdate: true }));
  try {
    const counts = await Promise.all(queues.map((queue) => queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed')));
    return Object.fromEntries(
      names.map((name, i) => {
        const c = counts[i];
        return [
          name,
          { waiting: (c.wait ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 },
        ];
      }),
    );
  } finally {
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
