import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobCatalog } from './catalog';
import { QueueError } from './errors';
import type { AnyJobDefinition, PayloadOf } from './job';
import { findJob, type JobCatalog } from './job-catalog';
import { DEFAULT_PREFIX } from './prefix';
import { jobTelemetry } from '@arbiter/telemetry';

export interface ProducerOptions<C extends JobCatalog> {
  /** BullMQ key prefix; default `arbiter`. */
  prefix?: string;
  /** Jobs this producer may enqueue; default the project's catalog. */
  catalog?: C;
  /**
   * How long an enqueue waits for a connection that is still making its first connect.
   * A connection that was ready and dropped fails at once (its offline queue is off).
   */
  readyTimeoutMs?: number;
}

export interface EnqueueOptions {
  /**
   * Idempotency key: while a job with this id is stored (until its removeOnComplete /
   * removeOnFail retention ends), a second enqueue returns it and adds nothing.
   * BullMQ refuses integer-looking ids and ':'.
   */
  jobId?: string;
  /** Milliseconds before the job may run. */
  delay?: number;
  /**
   * Trace contexts (W3C traceparents) of the work this job carries out, by item (e.g. outbox rows
   * written in traced requests): the job's span links to each, and its handler reads them from
   * `ctx.traceLinks`. Kept only while tracing is on.
   */
  traceLinks?: Record<string, string>;
}

export interface EnqueuedJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
}

export interface Producer<C extends JobCatalog = typeof jobCatalog> {
  /** Validates the payload against the catalog's schema and adds the job with the catalog's retry policy. */
  enqueue<J extends C[keyof C]>(job: J, payload: PayloadOf<J>, opts?: EnqueueOptions): Promise<EnqueuedJob>;
  /** For untyped sources (an outbox row): the name is looked up in the catalog, the payload checked at run time. */
  enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<EnqueuedJob>;
  /**
   * Runs `job` every `everyMs` through one BullMQ job scheduler named `schedulerId`: calling it again (another
   * worker, a restart, a new interval) updates the one schedule instead of adding one.
   */
  schedule<J extends C[keyof C]>(job: J, payload: PayloadOf<J>, opts: { schedulerId: string; everyMs: number }): Promise<void>;
  /** Closes this producer's BullMQ queues; the connection stays open (its owner closes it). */
  close(): Promise<void>;
}

const JOB_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * A producer over a caller-owned connection, normally `createRedisConnection(url, { forWorker: false })`.
 * One BullMQ Queue per catalog queue, created on first use.
 */
export function createProducer<C extends JobCatalog = typeof jobCatalog>(connection: Redis, opts: ProducerOptions<C> = {}): Producer<C> {
  const catalog: JobCatalog = opts.catalog ?? jobCatalog;
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 2000;
  const queues = new Map<string, Queue>();

  const queueFor = (name: string): Queue => {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix });
      // Connection errors reach the caller through the rejected add; without a listener
      // an 'error' event would crash the process.
      queue.on('error', () => undefined);
      queues.set(name, queue);
    }
    return queue;
  };

  async function enqueue(job: AnyJobDefinition | string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueuedJob> {
    // The catalog's definition, not the caller's object, decides schema and retry policy.
    const def = findJob(catalog, typeof job === 'string' ? job : job.name);
    if (typeof job !== 'string' && job.queue !== def.queue) {
      throw new QueueError('unknown_job', `${def.name} belongs to queue ${def.queue}, not ${job.queue}`);
    }
    const data = def.parse(payload);
    if (options.jobId !== undefined && (!JOB_ID_PATTERN.test(options.jobId) || /^\d+$/.test(options.jobId))) {
      throw new QueueError('invalid_job_id', 'jobId must be 1-200 letters, digits, ".", "_" or "-", not only digits');
    }
    await whenConnected(connection, readyTimeoutMs);
    try {
      // The enqueuing context travels in the job's options (BullMQ keeps them with the job), not in
      // its payload, whose schema workers of every version check.
      const telemetry = jobTelemetry(
        options.traceLinks && Object.keys(options.traceLinks).length ? { links: options.traceLinks } : undefined,
      );
      const added = await queueFor(def.queue).add(def.name, data, {
        attempts: def.retry.attempts,
        backoff: { type: def.retry.backoff.type, delay: def.retry.backoff.delay },
        removeOnComplete: def.removeOnComplete,
        removeOnFail: def.removeOnFail,
        jobId: options.jobId,
        delay: options.delay,
        ...(telemetry ? { telemetry } : {}),
      });
      return { id: added.id as string, name: def.name, queue: def.queue };
    } catch (err) {
      if (connection.status !== 'ready') {
        throw new QueueError('queue_unavailable', `cannot enqueue ${def.name}: Redis is unavailable (${(err as Error).message})`);
      }
      throw err;
    }
  }

  async function schedule(job: AnyJobDefinition, payload: unknown, opts: { schedulerId: string; everyMs: number }): Promise<void> {
    const def = findJob(catalog, job.name);
    const data = def.parse(payload);
    if (!JOB_ID_PATTERN.test(opts.schedulerId))
      throw new QueueError('invalid_job_id', 'schedulerId must be 1-200 letters, digits, ".", "_" or "-"');
    await whenConnected(connection, readyTimeoutMs);
    await queueFor(def.queue).upsertJobScheduler(
      opts.schedulerId,
      { every: opts.everyMs },
      {
        name: def.name,
        data,
        opts: {
          attempts: def.retry.attempts,
          backoff: { type: def.retry.backoff.type, delay: def.retry.backoff.delay },
          removeOnComplete: def.removeOnComplete,
          removeOnFail: def.removeOnFail,
        },
      },
    );
  }

  return {
    enqueue: enqueue as Producer<C>['enqueue'],
    schedule: schedule as Producer<C>['schedule'],
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      queues.clear();
    },
  };
}

/**
 * BullMQ waits, without bound, for the first `ready` of a Queue's connection. Bound that wait
 * for fail-fast connections (offline queue off); connections with an offline queue queue the
 * command anyway, which is their owner's choice.
 */
async function whenConnected(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready' || connection.options.enableOfflineQueue !== false) return;
  if (connection.status === 'reconnecting' || connection.status === 'close' || connection.status === 'end') {
    throw new QueueError('queue_unavailable', `Redis is unavailable (connection ${connection.status})`);
  }
  if (connection.status === 'wait') void connection.connect().catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      connection.off('ready', onReady);
      reject(new QueueError('queue_unavailable', `Redis is unavailable (not connected within ${timeoutMs} ms)`));
    }, timeoutMs);
    connection.once('ready', onReady);
  });
}
