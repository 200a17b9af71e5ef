import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { otelTrace, SpanKind } from '@arbiter/telemetry';
import { installTestTracing, type TestTracing } from '@arbiter/testing';
import { createServiceApp } from './app';
import { verdictDialect } from './dialects';
import { sendJson } from './fast-lane';
import { createLogger } from './logger';
import { requestHandler } from './server';

/** The server span of every request (docs/operations.md "Tracing"), on fast lanes and express routes alike. */
describe('server spans', () => {
  let tracing: TestTracing;
  let server: http.Server;
  let base: string;
  const active: Record<string, string | undefined> = {};

  beforeAll(async () => {
    tracing = installTestTracing();
    const app = createServiceApp({
      service: 'traced',
      dialect: verdictDialect,
      logger: createLogger('traced', 'silent'),
      fastLanes: [
        {
          method: 'POST',
          pattern: /^\/lane\/([^/]+)$/,
          route: '/lane/:id',
          async handle(_req, res, body) {
            active.lane = otelTrace.getActiveSpan()?.spanContext().spanId;
            sendJson(res, 200, body);
          },
        },
      ],
      routes: (a) => {
        // After the body parser: the request's span is still the active one.
        a.post('/items/:id', (req, res) => {
          active.express = otelTrace.getActiveSpan()?.spanContext().spanId;
          res.json(req.body);
        });
        a.get('/boom', () => {
          throw new Error('secret');
        });
      },
    });
    server = http.createServer(requestHandler(app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await tracing.shutdown();
  });
  beforeEach(() => tracing.exporter.reset());

  const spanNamed = async (name: string) => {
    for (let i = 0; i < 50; i++) {
      const found = tracing.exporter.getFinishedSpans().find((s) => s.name === name);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(
      `no span ${name}: ${tracing.exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  };
  const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('continues the caller on an express route, active for the route once the body is read', async () => {
    // The body comes well after the headers, in its own packet: the route still runs in the request's span.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${base}/items/7?q=1`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '7', traceparent: caller } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.end('{"n":1}'), 50);
    });
    expect(status).toBe(200);
    const span = await spanNamed('POST /items/:id');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span.attributes).toEqual({
      'arbiter.service': 'traced',
      'http.request.method': 'POST',
      'url.path': '/items/7',
      'http.route': '/items/:id',
      'http.response.status_code': 200,
    });
    expect(active.express).toBe(span.spanContext().spanId);
  });

  it('makes the span of a fast lane request, active in the lane', async () => {
    await fetch(`${base}/lane/1`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const span = await spanNamed('POST /lane/:id');
    expect(span.parentSpanContext).toBeUndefined();
    expect(active.lane).toBe(span.spanContext().spanId);
  });

  it('marks a 5xx as an error, names unmatched requests, and leaves the probes alone', async () => {
    await fetch(`${base}/boom`);
    expect((await spanNamed('GET /boom')).status.code).toBe(2);
    await fetch(`${base}/nowhere`);
    expect((await spanNamed('GET unmatched')).attributes['http.response.status_code']).toBe(404);
    await fetch(`${base}/livez`);
    await fetch(`${base}/metrics`);
    expect(
      tracing.exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['GET /boom', 'GET unmatched']);
  });
});
