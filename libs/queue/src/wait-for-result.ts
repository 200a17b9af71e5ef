import { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueError } from './errors';
import { DEFAULT_PREFIX } from './prefix';
import type { EnqueuedJob } from './producer';

/**
 * Waits until an enqueued job completed (returns its result) or failed for good
 * (QueueError `job_failed` with BullMQ's failedReason). For end-to-end checks (ping) and tests.
 *
 * It polls the job's state rather than listening on QueueEvents: a QueueEvents stream read
 * starts at "now", so a job that finishes while it is being set up would be missed; and
 * QueueEvents needs a blocking connection (maxRetriesPerRequest: null) the caller may not have.
 */
export async function waitForResult(
  connection: Redis,
  job: EnqueuedJob,
  opts: { prefix?: string; timeoutMs?: number; pollMs?: number } = {},
): Promise<unknown> {
  const queue = new Queue(job.queue, { connection, prefix: opts.prefix ?? DEFAULT_PREFIX, skipMetasUpdate: true });
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  try {
    for (;;) {
      const found = await Job.fromId(queue, job.id);
      if (!found) throw new QueueError('unknown_job', `job ${job.id} not found on queue ${job.queue} (removed?)`);
      if (found.finishedOn) {
        if (await found.isCompleted()) return found.returnvalue;
        if (await found.isFailed()) {
          throw new QueueError('job_failed', `job ${job.id} failed: ${found.failedReason}`, {
            failedReason: found.failedReason,
            attempts: found.attemptsMade,
          });
        }
      }
      if (Date.now() > deadline) throw new QueueError('wait_timeout', `job ${job.id} did not finish in time`);
      await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 20));
    }
  } finally {
    await queue.close();
  }
}
