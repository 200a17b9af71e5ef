import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  activeTraceparent,
  contextFromHeaders,
  contextFromJobMetadata,
  initTracing,
  inSpan,
  injectHeaders,
  jobTelemetry,
  spanContextOf,
  tracesEndpoint,
  tracingEnabled,
  untraced,
} from './index';
import { installTestTracing } from '@arbiter/testing';

describe('initTracing', () => {
  it('installs nothing without an OTLP endpoint, and the helpers do nothing', async () => {
    const handle = initTracing('verdict', {});
    expect(handle).toMatchObject({ enabled: false, endpoint: null });
    expect(tracingEnabled()).toBe(false);
    const headers = new Headers();
    await inSpan('nothing', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      injectHeaders(headers);
      expect(activeTraceparent()).toBeNull();
    });
    expect([...headers.keys()]).toEqual([]);
    expect(jobTelemetry()).toBeUndefined();
  });

  it('stays off when OTEL_SDK_DISABLED is true', () => {
    expect(initTracing('verdict', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
  });

  it('reads the traces URL as the exporter does', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(
      tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces' }),
    ).toBe('http://b:9999/traces');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
  });

  it('exports spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, named by OTEL_SERVICE_NAME', async () => {
    const posts: Array<{ url: string; type: string; body: string }> = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        posts.push({ url: req.url ?? '', type: String(req.headers['content-type']), body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const handle = initTracing('verdict', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'gateway-eu' });
      expect(handle).toMatchObject({ enabled: true, endpoint: `${endpoint}/v1/traces` });
      let traceId = '';
      await inSpan('exported', { attributes: { 'arbiter.tenant_id': 'tnt-1' } }, async (span) => {
        traceId = span.spanContext().traceId;
      });
      await handle.shutdown(); // flushes the batch
      expect(tracingEnabled()).toBe(false);
      expect(posts).toHaveLength(1);
      expect(posts[0]).toMatchObject({ url: '/v1/traces', type: expect.stringContaining('application/json') });
      const sent = JSON.parse(posts[0].body) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>;
        }>;
      };
      const [resourceSpans] = sent.resourceSpans;
      expect(resourceSpans.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'gateway-eu' } });
      expect(resourceSpans.scopeSpans[0].spans).toEqual([expect.objectContaining({ name: 'exported', traceId })]);
    } finally {
      receiver.close();
    }
  });
});

describe('propagation', () => {
  let tracing: ReturnType<typeof installTestTracing>;
  beforeEach(() => {
    tracing = installTestTracing();
  });
  afterEach(() => tracing.shutdown());

  it('carries one trace through HTTP headers, job metadata and a stored traceparent', async () => {
    const headers = new Headers();
    let metadata: string | undefined;
    let stored: string | null = null;
    await inSpan('origin', {}, async () => {
      injectHeaders(headers);
      metadata = jobTelemetry({ note: 'kept' })?.metadata;
      stored = activeTraceparent();
    });
    const [origin] = tracing.exporter.getFinishedSpans();
    const { traceId, spanId } = origin.spanContext();
    expect(headers.get('traceparent')).toBe(`00-${traceId}-${spanId}-01`);
    expect(stored).toBe(`00-${traceId}-${spanId}-01`);
    expect(JSON.parse(metadata!)).toEqual({ note: 'kept', traceparent: `00-${traceId}-${spanId}-01` });

    await inSpan('server', { parent: contextFromHeaders({ traceparent: headers.get('traceparent')! }) }, async () => undefined);
    await inSpan('job', { parent: contextFromJobMetadata(metadata) }, async () => undefined);
    await inSpan('linked', { links: [{ context: spanContextOf(stored)! }] }, async () => undefined);
    const [, server, job, linked] = tracing.exporter.getFinishedSpans();
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(spanId);
    expect(job.parentSpanContext?.spanId).toBe(spanId);
    expect(linked.spanContext().traceId).not.toBe(traceId);
    expect(linked.links.map((l) => l.context.spanId)).toEqual([spanId]);
  });

  it('gives a job no metadata when there is no span and nothing else to carry', () => {
    expect(jobTelemetry()).toBeUndefined();
    expect(jobTelemetry({ links: { a: 'b' } })).toEqual({ metadata: '{"links":{"a":"b"}}' });
  });

  it('records nothing under untraced, and tells the callee so', async () => {
    const headers = new Headers();
    await untraced(() => inSpan('poll', {}, async () => injectHeaders(headers)));
    expect(tracing.exporter.getFinishedSpans()).toEqual([]);
    expect(headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    await inSpan('server', { parent: contextFromHeaders({ traceparent: headers.get('traceparent')! }) }, async () => undefined);
    expect(tracing.exporter.getFinishedSpans()).toEqual([]);
  });

  it('records a failure on the span and rethrows it', async () => {
    await expect(inSpan('failing', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const [span] = tracing.exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: 2, message: 'boom' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('ignores job metadata it cannot read', async () => {
    for (const metadata of [undefined, 'not json', '[1]', '{"traceparent":"bogus"}']) {
      await inSpan('job', { parent: contextFromJobMetadata(metadata) }, async () => undefined);
    }
    expect(tracing.exporter.getFinishedSpans().map((s) => s.parentSpanContext)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
