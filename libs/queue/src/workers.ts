import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { jobCatalog } from './catalog';
import { closeRedisConnection, createRedisConnection } from './connection';
import { LoggedJobFailure, QueueError } from './errors';
import { checkHandlers, type HandlerMap, type JobContext } from './handlers';
import { queuesOf, type JobCatalog } from './job-catalog';
import { DEFAULT_PREFIX } from './prefix';
import { contextFromJobMetadata, inSpan, jobCarrier, spanContextOf, SpanKind, tracingEnabled } from '@arbiter/telemetry';

/** After aborting at the end of the grace period, how long close waits for aborted handlers. */
const ABORT_SETTLE_MS = 1000;

export interface StartWorkersOptions<C extends JobCatalog> {
  /** A connection made with `createRedisConnection(url, { forWorker: true })` (caller closes it), or a URL (closed by `close()`). */
  connection: Redis | string;
  /** Exactly one handler per catalog job. */
  handlers: NoInfer<HandlerMap<C>>;
  /** Default: the project's catalog. */
  catalog?: C;
  /** Jobs run at once per queue (one BullMQ Worker per queue); default 10. */
  concurrency?: number;
  /** BullMQ key prefix; default `arbiter`. */
  prefix?: string;
  logger: Logger;
  /**
   * How long `close()` waits for running jobs. Past it, their AbortSignal fires and close
   * waits at most 1 s more: a handler that honours the signal fails its attempt and is
   * retried; one that ignores it is retried by another worker once BullMQ sees it stalled
   * (its lock expires). Default 10,000 ms.
   */
  shutdownGraceMs?: number;
}

export interface RunningWorkers {
  /** Queues being consumed. */
  readonly queues: readonly string[];
  /** Stops taking jobs and waits for the running ones (see shutdownGraceMs). Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts one BullMQ Worker per catalog queue, dispatching each job by name to its handler.
 * The handler map is checked first (QueueError `handler_mismatch`), before any connection
 * is used. A payload that fails its schema, or a name not in the catalog, fails the job at
 * once without retry (UnrecoverableError): running it again cannot help.
 */
export async function startWorkers<C extends JobCatalog = typeof jobCatalog>(opts: StartWorkersOptions<C>): Promise<RunningWorkers> {
  const catalog: JobCatalog = opts.catalog ?? jobCatalog;
  const handlers = opts.handlers as Readonly<Record<string, (payload: unknown, ctx: JobContext) => Promise<unknown>>>;
  checkHandlers(catalog, handlers);

  const concurrency = opts.concurrency ?? 10;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new QueueError('invalid_options', 'concurrency must be a positive integer');
  }
  if (typeof opts.connection !== 'string' && opts.connection.options.maxRetriesPerRequest !== null) {
    // BullMQ would throw a less telling error from the Worker constructor.
    throw new QueueError(
      'invalid_options',
      'a worker connection needs maxRetriesPerRequest: null; use createRedisConnection(url, { forWorker: true })',
    );
  }
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const graceMs = opts.shutdownGraceMs ?? 10_000;
  const logger = opts.logger;
  const ownsConnection = typeof opts.connection === 'string';
  const connection =
    typeof opts.connection === 'string' ? createRedisConnection(opts.connection, { forWorker: true, logger }) : opts.connection;

  const queues = queuesOf(catalog);
  const workers = queues.map((queue) => {
    // Three declared parameters: BullMQ creates the job's AbortSignal only for a processor
    // whose `length` is at least 3 (worker.processorAcceptsSignal).
    const processor = async (job: Job, _token: string | undefined, signal: AbortSignal | undefined): Promise<unknown> => {
      const def = Object.hasOwn(catalog, job.name) ? catalog[job.name] : undefined;
      if (!def || def.queue !== queue) {
        throw new UnrecoverableError(`unknown_job: no job named ${JSON.stringify(job.name)} on queue ${queue}`);
      }
      let payload: unknown;
      try {
        payload = def.parse(job.data);
      } catch (err) {
        throw new UnrecoverableError(`invalid_payload: ${(err as Error).message}`);
      }
      const attempt = job.attemptsMade + 1;
      const log = logger.child({ job: job.name, job_id: job.id, attempt });
      const jobSignal = signal ?? new AbortController().signal;
      if (!tracingEnabled())
        return handlers[job.name](payload, { jobId: job.id as string, attempt, log, signal: jobSignal, traceLinks: NO_LINKS });
      const metadata = job.opts.telemetry?.metadata;
      const traceLinks = linksOf(jobCarrier(metadata).links);
      const links = Object.values(traceLinks).flatMap((tp) => {
        const linked = spanContextOf(tp);
        return linked ? [{ context: linked }] : [];
      });
      const attributes = {
        'messaging.system': 'bullmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': String(job.id),
        'arbiter.job.name': job.name,
        'arbiter.job.attempt': attempt,
      };
      // The job continues the trace of whoever enqueued it (its span is the parent).
      return inSpan(`process ${job.name}`, { kind: SpanKind.CONSUMER, parent: contextFromJobMetadata(metadata), attributes, links }, () =>
        handlers[job.name](payload, { jobId: job.id as string, attempt, log, signal: jobSignal, traceLinks }),
      );
    };
    const worker = new Worker(queue, processor, { connection, prefix, concurrency });
    worker.on('failed', (job, err) => {
      // Logged by its handler already (LoggedJobFailure), as a warning without a stack.
      if (!job || err instanceof LoggedJobFailure) return;
      const attempts = job.opts.attempts ?? 1;
      const final = err.name === 'UnrecoverableError' || job.attemptsMade >= attempts;
      const fields = { job: job.name, job_id: job.id, attempt: job.attemptsMade, attempts, err };
      if (final) logger.error(fields, 'job failed');
      else logger.warn(fields, 'job failed, will retry');
    });
    // Without a listener an 'error' event (e.g. Redis gone) would crash the process.
    worker.on('error', (err) => logger.error({ err, queue }, 'worker error'));
    return worker;
  });

  try {
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  } catch (err) {
    await Promise.allSettled(workers.map((worker) => worker.close(true)));
    if (ownsConnection) connection.disconnect();
    throw err;
  }
  logger.debug({ queues, concurrency, prefix }, 'job workers ready');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const closed = Promise.all(workers.map((worker) => worker.close())).then(() => true);
      closed.catch(() => undefined);
      if (!(await within(closed, graceMs))) {
        // worker.close() is memoised, so a later close(true) cannot cut the wait short:
        // abort the handlers instead, give those that honour the signal a moment to record
        // the failed attempt (their retry), and stop waiting.
        logger.warn({ grace_ms: graceMs }, 'shutdown grace over; aborting running jobs, they will be retried');
        for (const worker of workers) worker.cancelAllJobs('shutdown');
        await within(closed, ABORT_SETTLE_MS);
        if (ownsConnection) connection.disconnect();
        return;
      }
      if (ownsConnection) await closeRedisConnection(connection);
    })());

  return { queues, close };
}

const NO_LINKS: Readonly<Record<string, string>> = Object.freeze({});

/** The `links` member of a job's trace carrier: string values only. */
function linksOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Whether `promise` resolved within `ms`; a rejection counts as not done. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
