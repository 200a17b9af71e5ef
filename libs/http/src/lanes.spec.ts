import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createServiceApp } from './app';
import { verdictDialect } from './dialects';
import { AppError } from './errors';
import { sendJson } from './fast-lane';
import { createLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { requestHandler } from './server';

describe('fast lanes', () => {
  const metrics = new ServiceMetrics('lanes-test');
  const app = createServiceApp({
    service: 'lanes-test',
    dialect: verdictDialect,
    logger: createLogger('lanes-test', 'silent'),
    metrics,
    bodyLimit: 1024,
    fastLanes: [
      {
        method: 'POST',
        pattern: /^\/items\/([^/]+)\/?$/i,
        route: '/items/:id',
        async handle(_req, res, body, [id]) {
          if (id === 'bad') throw new AppError(409, 'conflict_here', 'No', { id });
          if (id === 'boom') throw new Error('secret internals');
          sendJson(res, 201, { lane: true, id, body });
        },
      },
    ],
    routes: (a) => {
      a.post('/items/:id', (req, res) => {
        res.status(201).json({ lane: false, id: req.params.id, body: req.body });
      });
    },
  });
  const server = http.createServer(requestHandler(app));
  let base: string;
  beforeAll(
    () =>
      new Promise<void>((r) =>
        server.listen(0, '127.0.0.1', () => ((base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`), r())),
      ),
  );
  afterAll(() => new Promise((r) => server.close(r)));

  const post = async (path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, requestId: res.headers.get('x-request-id'), json: (await res.json()) as Record<string, unknown> };
  };

  it('answers the requests it takes, with their decoded parameters and a request id', async () => {
    expect(await post('/items/a%20b?x=1', '{"n":1}', { 'x-request-id': 'r-1' })).toEqual({
      status: 201,
      requestId: 'r-1',
      json: { lane: true, id: 'a b', body: { n: 1 } },
    });
    expect((await post('/ITEMS/c/', '{}')).json).toEqual({ lane: true, id: 'c', body: {} });
  });

  it('hands express what it does not take: another path, a compressed body, an undecodable parameter', async () => {
    expect((await post('/items/a/b', '{}')).status).toBe(404);
    expect((await post('/items/z', gzipSync('{"n":2}'), { 'content-encoding': 'gzip' })).json).toEqual({
      lane: false,
      id: 'z',
      body: { n: 2 },
    });
    expect((await post('/items/%E0%A4%A', '{}')).status).toBe(400);
  });

  it("answers errors in the service's dialect: coded, malformed bodies, and a 500 that hides the error", async () => {
    expect(await post('/items/bad', '{}')).toMatchObject({
      status: 409,
      json: { code: 'conflict_here', message: 'No', details: { id: 'bad' } },
    });
    expect(await post('/items/a', '{"n":')).toMatchObject({ status: 400, json: { code: 'malformed_json' } });
    const boom = await post('/items/boom', '{}');
    expect(boom.status).toBe(500);
    expect(JSON.stringify(boom.json)).not.toContain('secret internals');
  });

  it('counts lane answers under their route in the HTTP metrics', async () => {
    await post('/items/m', '{}');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/arbiter_http_requests_total\{[^}]*method="POST"[^}]*route="\/items\/:id"[^}]*status="201"[^}]*\} \d+/);
  });
});
