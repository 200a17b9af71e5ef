import express from 'express';
import request from 'supertest';
import { createServiceApp } from './app';
import { verdictDialect } from './dialects';
import { createLogger } from './logger';
import { MetricsError, ServiceMetrics } from './metrics';

/** The value of one series in the text exposition, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text.split('\n').find((l) => {
    if (!l.startsWith(`${name}{`)) return false;
    return Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`));
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

function makeApp(metrics?: ServiceMetrics) {
  return createServiceApp({
    service: 'ledger',
    dialect: verdictDialect,
    logger: createLogger('test', 'silent'),
    metrics,
    routes: (app) => {
      app.get('/v1/streams/:stream_id/facts', (_req, res) => {
        res.json({ facts: [] });
      });
      app.post('/v1/streams/:stream_id/facts', (_req, res) => {
        res.status(201).json({});
      });
      const router = express.Router();
      router.get('/tenants/:tenant_id/state', (_req, res) => {
        res.json({});
      });
      app.use('/internal/v1', router);
    },
  });
}

describe(ServiceMetrics.name, () => {
  it('counts requests by method, route pattern and status, never by raw URL', async () => {
    const sut = makeApp();
    await request(sut).get('/v1/streams/str-1/facts').expect(200);
    await request(sut).get('/v1/streams/str-2/facts').expect(200);
    await request(sut).post('/v1/streams/str-2/facts').send({}).expect(201);
    const text = (await request(sut).get('/metrics').expect(200)).text;

    const facts = { method: 'GET', route: '/v1/streams/:stream_id/facts', status: '200' };
    expect(sample(text, 'arbiter_http_requests_total', facts)).toBe(2);
    expect(sample(text, 'arbiter_http_requests_total', { method: 'POST', route: '/v1/streams/:stream_id/facts', status: '201' })).toBe(1);
    expect(sample(text, 'arbiter_http_request_duration_seconds_count', facts)).toBe(2);
    expect(text).not.toContain('str-1');
    expect(text).toContain('service="ledger"');
  });

  it('labels a route of a mounted router with its full pattern', async () => {
    const sut = makeApp();
    await request(sut).get('/internal/v1/tenants/tnt-9/state').expect(200);
    const text = (await request(sut).get('/metrics')).text;
    expect(sample(text, 'arbiter_http_requests_total', { route: '/internal/v1/tenants/:tenant_id/state', status: '200' })).toBe(1);
  });

  it('puts every unknown path under one unmatched route', async () => {
    const sut = makeApp();
    await request(sut).get('/nope/1').expect(404);
    await request(sut).get('/nope/2').expect(404);
    const text = (await request(sut).get('/metrics')).text;
    expect(sample(text, 'arbiter_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    expect(text).not.toContain('/nope');
  });

  it('counts answers given before routing, such as a malformed body', async () => {
    const sut = makeApp();
    await request(sut).post('/v1/streams/s/facts').set('Content-Type', 'application/json').send('{"a":').expect(400);
    const text = (await request(sut).get('/metrics')).text;
    expect(sample(text, 'arbiter_http_requests_total', { method: 'POST', status: '400' })).toBe(1);
  });

  it('serves the Prometheus text format with process metrics', async () => {
    const res = await request(makeApp()).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE arbiter_http_requests_total counter');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('exposes domain metrics that services record on the metrics they passed in', async () => {
    const metrics = new ServiceMetrics('verdict', { defaultMetrics: false });
    const sut = makeApp(metrics);
    const verdicts = metrics.counter('verdicts_total', { help: 'Verdicts by outcome', labelNames: ['outcome'] });
    verdicts.inc({ outcome: 'allowed' });
    verdicts.inc({ outcome: 'allowed' });
    metrics.histogram('consultation_write_batch_size', { help: 'Rows per INSERT', buckets: [1, 10, 100] }).observe(7);
    metrics.gauge('queue_jobs', {
      help: 'Jobs by queue and state',
      labelNames: ['queue', 'state'],
      collect() {
        this.set({ queue: 'webhooks', state: 'waiting' }, 3);
      },
    });
    const text = (await request(sut).get('/metrics')).text;
    expect(sample(text, 'arbiter_verdicts_total', { outcome: 'allowed' })).toBe(2);
    expect(sample(text, 'arbiter_consultation_write_batch_size_bucket', { le: '10' })).toBe(1);
    expect(sample(text, 'arbiter_queue_jobs', { queue: 'webhooks', state: 'waiting' })).toBe(3);
    expect(text).not.toContain('process_cpu_user_seconds_total');
  });

  it('returns the same metric when asked twice with the same shape', () => {
    const sut = new ServiceMetrics('ledger');
    const a = sut.counter('ledger_seals_total', { help: 'Seals', labelNames: ['result'] });
    const b = sut.counter('arbiter_ledger_seals_total', { help: 'Seals', labelNames: ['result'] });
    expect(b).toBe(a);
  });

  it('refuses a metric registered again with another type or labels, with code metric_conflict', () => {
    const sut = new ServiceMetrics('ledger');
    sut.counter('ledger_seals_total', { help: 'Seals', labelNames: ['result'] });
    expect(() => sut.gauge('ledger_seals_total', { help: 'Seals', labelNames: ['result'] })).toThrow(
      expect.objectContaining({ code: 'metric_conflict' }),
    );
    expect(() => sut.counter('ledger_seals_total', { help: 'Seals', labelNames: ['tenant'] })).toThrow(MetricsError);
  });

  it('refuses invalid names and the reserved service label, with code invalid_metric_name', () => {
    const sut = new ServiceMetrics('ledger');
    expect(() => sut.counter('Seals-Total', { help: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_metric_name' }));
    expect(() => sut.counter('seals_total', { help: 'x', labelNames: ['service'] })).toThrow(
      expect.objectContaining({ code: 'invalid_metric_name' }),
    );
  });

  it('keeps the series of two apps in one process apart', async () => {
    const one = makeApp();
    const two = makeApp();
    await request(one).get('/v1/streams/s/facts').expect(200);
    const text = (await request(two).get('/metrics')).text;
    expect(sample(text, 'arbiter_http_requests_total', { route: '/v1/streams/:stream_id/facts' })).toBeUndefined();
  });
});
