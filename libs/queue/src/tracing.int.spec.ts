import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import pino from 'pino';
import { inSpan, SpanKind } from '@arbiter/telemetry';
import { installTestTracing, type TestTracing } from '@arbiter/testing';
import { pingJob, type PingPayload } from './catalog';
import { closeRedisConnection, createRedisConnection } from './connection';
import type { JobContext } from './handlers';
import { defineCatalog } from './job-catalog';
import { createProducer } from './producer';
import { waitForResult } from './wait-for-result';
import { startWorkers, type RunningWorkers } from './workers';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) throw new Error('REDIS_URL is not set: run under the root jest config (its global setup starts Redis) or set it');

const catalog = defineCatalog({ 'system.v1.ping': pingJob });

/** Trace context through a job (docs/operations.md "Tracing"): in the job's options, never in its payload. */
describe('jobs and tracing', () => {
  const prefix = `arbiter-test-${randomUUID()}`;
  const producerConnection = createRedisConnection(REDIS_URL, { forWorker: false });
  const workerConnection = createRedisConnection(REDIS_URL, { forWorker: true });
  const producer = createProducer(producerConnection, { prefix, catalog });
  const seen: JobContext[] = [];
  let tracing: TestTracing | undefined;
  let workers: RunningWorkers | undefined;

  beforeAll(async () => {
    workers = await startWorkers({
      connection: workerConnection,
      catalog,
      prefix,
      logger: pino({ level: 'silent' }),
      handlers: {
        'system.v1.ping': async (payload: PingPayload, ctx) => {
          seen.push(ctx);
          // A span of the handler's own work, in the job's trace.
          return inSpan('handler work', {}, async () => ({ pong: payload.message, received_at: new Date().toISOString() }));
        },
      },
    });
  });
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
    seen.length = 0;
  });
  afterAll(async () => {
    await workers?.close();
    await producer.close();
    await Promise.all([closeRedisConnection(producerConnection), closeRedisConnection(workerConnection)]);
  });

  const stored = async (id: string) => {
    const queue = new Queue('system', { connection: producerConnection, prefix });
    try {
      return (await Job.fromId(queue, id))!;
    } finally {
      await queue.close();
    }
  };
  const ping = (message: string): PingPayload => ({ message, sent_at: new Date().toISOString() });

  it('continues the enqueuing span in the job, links its items and leaves the payload alone', async () => {
    tracing = installTestTracing();
    const linked = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const job = await inSpan('enqueuer', {}, () => producer.enqueue(pingJob, ping('traced'), { traceLinks: { 'row-1': linked } }));
    await waitForResult(producerConnection, job, { prefix });

    const spans = tracing.exporter.getFinishedSpans();
    const enqueuer = spans.find((s) => s.name === 'enqueuer')!;
    const processed = spans.find((s) => s.name === 'process system.v1.ping')!;
    expect(processed.kind).toBe(SpanKind.CONSUMER);
    expect(processed.spanContext().traceId).toBe(enqueuer.spanContext().traceId);
    expect(processed.parentSpanContext?.spanId).toBe(enqueuer.spanContext().spanId);
    expect(processed.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'],
    ]);
    expect(processed.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'system',
      'messaging.message.id': job.id,
      'arbiter.job.attempt': 1,
    });
    const work = spans.find((s) => s.name === 'handler work')!;
    expect(work.parentSpanContext?.spanId).toBe(processed.spanContext().spanId);
    expect(seen.map((ctx) => ctx.traceLinks)).toEqual([{ 'row-1': linked }]);

    const saved = await stored(job.id);
    expect(Object.keys(saved.data).sort()).toEqual(['message', 'sent_at']);
    expect(JSON.parse(saved.opts.telemetry!.metadata!)).toEqual({
      traceparent: `00-${enqueuer.spanContext().traceId}-${enqueuer.spanContext().spanId}-01`,
      links: { 'row-1': linked },
    });
  });

  it('adds nothing to a job while tracing is off', async () => {
    const job = await producer.enqueue(pingJob, ping('untraced'), {
      traceLinks: { 'row-1': '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    await waitForResult(producerConnection, job, { prefix });
    expect((await stored(job.id)).opts.telemetry).toBeUndefined();
    expect(seen.map((ctx) => ctx.traceLinks)).toEqual([{}]);
  });
});
