import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { pingJob, type PingPayload } from './catalog';
import { closeRedisConnection, createRedisConnection } from './connection';
import { queueDepths } from './depths';
import { eventually } from '@arbiter/testing';
import { LoggedJobFailure, QueueError } from './errors';
import type { HandlerMap, JobContext } from './handlers';
import { defineJob } from './job';
import { defineCatalog } from './job-catalog';
import { createProducer, type Producer } from './producer';
import { waitForResult } from './wait-for-result';
import { startWorkers, type RunningWorkers } from './workers';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) throw new Error('REDIS_URL is not set: run under the root jest config (its global setup starts Redis) or set it');

const logger = pino({ level: 'silent' });
const numberSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['n'],
  properties: { n: { type: 'integer' } },
} as const;

// Test jobs next to the project's ping, with tiny backoffs so retries happen within the test.
const flakyJob = defineJob<{ n: number }, { n: number; attempt: number }>({
  name: 'test.v1.flaky',
  queue: 'test',
  schema: numberSchema,
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 5 } },
});
const slowJob = defineJob<{ n: number }, { n: number }>({
  name: 'test.v1.slow',
  queue: 'slow',
  schema: numberSchema,
  retry: { attempts: 2, backoff: { type: 'fixed', delay: 5 } },
});
const testCatalog = defineCatalog({ 'system.v1.ping': pingJob, 'test.v1.flaky': flakyJob, 'test.v1.slow': slowJob });
type TestCatalog = typeof testCatalog;

const ping = async (payload: PingPayload) => ({ pong: payload.message, received_at: new Date().toISOString() });
const unused = async (): Promise<never> => {
  throw new Error('not expected to run');
};

function payloadPing(message = 'hello'): PingPayload {
  return { message, sent_at: new Date().toISOString() };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe(startWorkers.name, () => {
  let prefix: string;
  let producerConnection: Redis;
  let workerConnection: Redis;
  let producer: Producer<TestCatalog>;
  const started: RunningWorkers[] = [];

  const start = async (handlers: Partial<HandlerMap<TestCatalog>>, extra: { shutdownGraceMs?: number; logger?: pino.Logger } = {}) => {
    const running = await startWorkers({
      connection: workerConnection,
      catalog: testCatalog,
      handlers: { 'system.v1.ping': ping, 'test.v1.flaky': unused, 'test.v1.slow': unused, ...handlers },
      prefix,
      logger,
      ...extra,
    });
    started.push(running);
    return running;
  };

  beforeEach(() => {
    prefix = `arbiter-test-${randomUUID()}`;
    producerConnection = createRedisConnection(REDIS_URL, { forWorker: false });
    workerConnection = createRedisConnection(REDIS_URL, { forWorker: true });
    producer = createProducer(producerConnection, { prefix, catalog: testCatalog });
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((running) => running.close()));
    await producer.close();
    await Promise.all([closeRedisConnection(producerConnection), closeRedisConnection(workerConnection)]);
  });

  it('runs a ping through a worker and stores the handler result', async () => {
    const contexts: JobContext[] = [];
    await start({
      'system.v1.ping': async (payload, ctx) => {
        contexts.push(ctx);
        return ping(payload);
      },
    });

    const job = await producer.enqueue(pingJob, payloadPing('hello'));
    const sut = await waitForResult(producerConnection, job, { prefix });

    expect(sut).toEqual({ pong: 'hello', received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(job).toEqual({ id: expect.any(String), name: 'system.v1.ping', queue: 'system' });
    expect(contexts.map((ctx) => [ctx.jobId, ctx.attempt, ctx.signal.aborted])).toEqual([[job.id, 1, false]]);
  });

  it('uses the project catalog when none is given', async () => {
    const projectProducer = createProducer(producerConnection, { prefix });
    const unused = async (): Promise<never> => {
      throw new Error('not used here');
    };
    const running = await startWorkers({
      connection: workerConnection,
      handlers: {
        'system.v1.ping': ping,
        'webhook.v1.deliver': unused,
        'ledger.v1.seal': unused,
        'notification.v1.send': unused,
        'maintenance.v1.run': unused,
      },
      prefix,
      logger,
    });
    started.push(running);
    expect(running.queues).toEqual(['system', 'webhook', 'ledger', 'notification', 'maintenance']);

    const job = await projectProducer.enqueue('system.v1.ping', payloadPing('by name'));
    expect(await waitForResult(producerConnection, job, { prefix })).toMatchObject({ pong: 'by name' });
    await projectProducer.close();
  });

  it('rejects an invalid payload on enqueue with invalid_payload and adds nothing', async () => {
    const bad = { message: 42, sent_at: 'now' } as unknown as PingPayload;

    await expect(producer.enqueue(pingJob, bad)).rejects.toMatchObject({ code: 'invalid_payload', name: 'QueueError' });
    await expect(producer.enqueue('system.v1.ping', { message: 'x' })).rejects.toBeInstanceOf(QueueError);

    expect((await queueDepths(producerConnection, { prefix, catalog: testCatalog })).system).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
    });
  });

  it('rejects a job that is not in the catalog with unknown_job', async () => {
    await expect(producer.enqueue('test.v9.nothing', {})).rejects.toMatchObject({ code: 'unknown_job' });
  });

  it('rejects a jobId BullMQ cannot store with invalid_job_id', async () => {
    await expect(producer.enqueue(pingJob, payloadPing(), { jobId: '123' })).rejects.toMatchObject({ code: 'invalid_job_id' });
    await expect(producer.enqueue(pingJob, payloadPing(), { jobId: 'a:b' })).rejects.toMatchObject({ code: 'invalid_job_id' });
  });

  it('retries a handler that throws twice and completes on attempt 3', async () => {
    const attempts: number[] = [];
    await start({
      'test.v1.flaky': async (payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error(`transient failure ${ctx.attempt}`);
        return { n: payload.n, attempt: ctx.attempt };
      },
    });

    const job = await producer.enqueue(flakyJob, { n: 7 });

    expect(await waitForResult(producerConnection, job, { prefix })).toEqual({ n: 7, attempt: 3 });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('fails a job after its last attempt with the handler error', async () => {
    await start({
      'test.v1.flaky': async () => {
        throw new Error('always broken');
      },
    });

    const job = await producer.enqueue(flakyJob, { n: 1 });

    await expect(waitForResult(producerConnection, job, { prefix })).rejects.toMatchObject({
      code: 'job_failed',
      details: { failedReason: 'always broken', attempts: 3 },
    });
  });

  it('fails a LoggedJobFailure like any failure without logging it again; another failure is logged as an error', async () => {
    const lines: Array<{ level: number; msg: string; job_id?: string; err?: unknown }> = [];
    const captured = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let failure: Error = new LoggedJobFailure('a service is not up yet');
    await start({ 'test.v1.slow': async () => Promise.reject(failure) }, { logger: captured });
    const quiet = await producer.enqueue(slowJob, { n: 1 });
    await expect(waitForResult(producerConnection, quiet, { prefix })).rejects.toMatchObject({
      code: 'job_failed',
      details: { failedReason: 'a service is not up yet', attempts: 2 },
    });
    failure = new Error('broken');
    const loud = await producer.enqueue(slowJob, { n: 2 });
    await expect(waitForResult(producerConnection, loud, { prefix })).rejects.toMatchObject({ code: 'job_failed' });
    await eventually('the failure logged', async () => lines.some((l) => l.msg === 'job failed' && l.level === 50 && l.err) || undefined);
    // The jobs run one after the other: by now the first one's failures would have been logged.
    expect(lines.filter((l) => l.msg.startsWith('job failed') && l.job_id === quiet.id)).toEqual([]);
  });

  it('fails a job whose payload is invalid at the worker without retrying it', async () => {
    let calls = 0;
    await start({
      'test.v1.flaky': async (payload) => {
        calls += 1;
        return { n: payload.n, attempt: 1 };
      },
    });
    // Written past the producer, as an old or foreign producer could.
    const raw = new Queue('test', { connection: producerConnection, prefix });
    const added = await raw.add('test.v1.flaky', { n: 'not a number' }, { attempts: 3 });
    await raw.close();

    const sut = waitForResult(producerConnection, { id: added.id!, name: 'test.v1.flaky', queue: 'test' }, { prefix });

    await expect(sut).rejects.toMatchObject({ code: 'job_failed', details: { attempts: 1 } });
    await expect(sut).rejects.toThrow(/invalid_payload: .*\/n must be integer/);
    expect(calls).toBe(0);
  });

  it('fails a job whose name is not in the catalog without retrying it', async () => {
    await start({});
    const raw = new Queue('test', { connection: producerConnection, prefix });
    const added = await raw.add('test.v9.gone', { n: 1 }, { attempts: 3 });
    await raw.close();

    await expect(
      waitForResult(producerConnection, { id: added.id!, name: 'test.v9.gone', queue: 'test' }, { prefix }),
    ).rejects.toMatchObject({
      code: 'job_failed',
      details: { failedReason: expect.stringContaining('unknown_job'), attempts: 1 },
    });
  });

  it('close waits for a job in flight to finish', async () => {
    const running = deferred();
    const release = deferred();
    const order: string[] = [];
    const sut = await start({
      'test.v1.slow': async (payload) => {
        running.resolve();
        await release.promise;
        order.push('job finished');
        return { n: payload.n };
      },
    });
    const job = await producer.enqueue(slowJob, { n: 5 });
    await running.promise;

    const closing = sut.close().then(() => order.push('closed'));
    // Give close every chance to return early; it must not.
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('released');
    release.resolve();
    await closing;

    expect(order).toEqual(['released', 'job finished', 'closed']);
    expect(await waitForResult(producerConnection, job, { prefix })).toEqual({ n: 5 });
  });

  it('aborts the jobs still running when the shutdown grace is over, leaving them to retry', async () => {
    const running = deferred();
    const sut = await start(
      {
        'test.v1.slow': async (_payload, ctx) => {
          running.resolve();
          await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted by shutdown'))));
          throw new Error('unreachable');
        },
      },
      { shutdownGraceMs: 50 },
    );
    const job = await producer.enqueue(slowJob, { n: 1 });
    await running.promise;

    await sut.close();

    // The aborted attempt is recorded and the job waits for its retry (attempts: 2).
    const queue = new Queue('slow', { connection: producerConnection, prefix });
    let state = 'active';
    for (let i = 0; i < 250 && state === 'active'; i += 1) {
      state = await queue.getJobState(job.id);
      if (state === 'active') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stored = await Job.fromId(queue, job.id);
    await queue.close();
    expect(['delayed', 'waiting']).toContain(state);
    expect(stored?.failedReason).toBe('aborted by shutdown');
    expect(stored?.attemptsMade).toBe(1);
  });

  it('refuses a handler map that does not match the catalog with handler_mismatch', async () => {
    const handlers = { 'system.v1.ping': ping, 'test.v1.flaky': unused, 'test.v2.slow': unused } as unknown as HandlerMap<TestCatalog>;

    await expect(startWorkers({ connection: workerConnection, catalog: testCatalog, handlers, prefix, logger })).rejects.toMatchObject({
      code: 'handler_mismatch',
      details: { missing: ['test.v1.slow'], unknown: ['test.v2.slow'] },
    });
  });

  it('refuses a connection that BullMQ workers cannot use with invalid_options', async () => {
    await expect(
      startWorkers({
        connection: producerConnection,
        catalog: testCatalog,
        handlers: { 'system.v1.ping': ping, 'test.v1.flaky': unused, 'test.v1.slow': unused },
        prefix,
        logger,
      }),
    ).rejects.toMatchObject({ code: 'invalid_options' });
  });

  it('starts from a URL and closes the connection it made', async () => {
    const sut = await startWorkers({
      connection: REDIS_URL,
      catalog: testCatalog,
      handlers: { 'system.v1.ping': ping, 'test.v1.flaky': unused, 'test.v1.slow': unused },
      prefix,
      logger,
    });

    const job = await producer.enqueue(pingJob, payloadPing('url'));
    expect(await waitForResult(producerConnection, job, { prefix })).toMatchObject({ pong: 'url' });
    await sut.close();
    await sut.close();
  });
});

describe(createProducer.name, () => {
  let prefix: string;
  let connection: Redis;

  beforeEach(() => {
    prefix = `arbiter-test-${randomUUID()}`;
    connection = createRedisConnection(REDIS_URL, { forWorker: false });
  });

  afterEach(async () => {
    await closeRedisConnection(connection);
  });

  it('adds a job once when the same jobId is enqueued twice', async () => {
    const sut = createProducer(connection, { prefix, catalog: testCatalog });

    const first = await sut.enqueue(pingJob, payloadPing('first'), { jobId: 'outbox-row-1' });
    const second = await sut.enqueue(pingJob, payloadPing('second'), { jobId: 'outbox-row-1' });

    expect(second.id).toBe(first.id);
    expect(first.id).toBe('outbox-row-1');
    expect((await queueDepths(connection, { prefix, catalog: testCatalog })).system.waiting).toBe(1);
    const queue = new Queue('system', { connection, prefix });
    const stored = await Job.fromId(queue, 'outbox-row-1');
    await queue.close();
    expect(stored?.data).toMatchObject({ message: 'first' });
    await sut.close();
  });

  it('applies the catalog retry policy and retention to the stored job', async () => {
    const sut = createProducer(connection, { prefix, catalog: testCatalog });

    const job = await sut.enqueue(flakyJob, { n: 3 }, { delay: 60_000 });

    const queue = new Queue('test', { connection, prefix });
    const stored = await Job.fromId(queue, job.id);
    await queue.close();
    expect(stored?.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 5 },
      removeOnComplete: { age: 86400, count: 10000 },
      removeOnFail: { age: 604800 },
      delay: 60_000,
    });
    expect(await queueDepths(connection, { prefix, catalog: testCatalog })).toEqual({
      system: { waiting: 0, active: 0, delayed: 0, failed: 0 },
      test: { waiting: 0, active: 0, delayed: 1, failed: 0 },
      slow: { waiting: 0, active: 0, delayed: 0, failed: 0 },
    });
    await sut.close();
  });

  it('makes fail-fast producer connections and blocking-safe worker connections', async () => {
    const worker = createRedisConnection(REDIS_URL, { forWorker: true });
    expect([connection.options.enableOfflineQueue, worker.options.maxRetriesPerRequest, worker.options.enableOfflineQueue]).toEqual([
      false,
      null,
      true,
    ]);
    await closeRedisConnection(worker);
  });

  it('fails fast with queue_unavailable when Redis cannot be reached', async () => {
    // Port 1 (tcpmux) has no listener here. Same options as a producer connection; the short
    // disconnectTimeout only spares Jest the 2 s ioredis waits on a socket that already closed.
    const unreachable = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, disconnectTimeout: 10 });
    unreachable.on('error', () => undefined);
    const sut = createProducer(unreachable, { prefix, catalog: testCatalog, readyTimeoutMs: 200 });

    await expect(sut.enqueue(pingJob, payloadPing())).rejects.toMatchObject({ code: 'queue_unavailable' });

    await sut.close();
    await closeRedisConnection(unreachable);
  });
});
