import request from 'supertest';
import pino from 'pino';
import { Writable } from 'node:stream';
import { ValidateError } from '@tsoa/runtime';
import { createServiceApp } from './app';
import { ledgerDialect, registryDialect, verdictDialect } from './dialects';
import { AppError, type ErrorDialect } from './errors';
import { createLogger } from './logger';

function makeApp(dialect: ErrorDialect, ready = true, logger = createLogger('test', 'silent')) {
  return createServiceApp({
    service: 'test',
    dialect,
    logger,
    bodyLimit: 1024,
    openapi: { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} },
    readiness: [
      {
        name: 'db',
        check: async () => {
          if (!ready) throw new Error('db down');
        },
      },
    ],
    routes: (app) => {
      app.post('/echo', (req, res) => {
        res.json({ got: req.body });
      });
      app.get('/boom', () => {
        throw new Error('secret internals');
      });
      app.get('/things/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      app.get('/coded', () => {
        throw new AppError(409, 'already_decided', 'The approval is already resolved', { id: 'apr-1' });
      });
      app.post('/validate', () => {
        throw new ValidateError({ 'requestBody.name': { message: "'name' is required" } }, 'bad');
      });
      app.post('/validate-type', () => {
        throw new ValidateError({ 'requestBody.n': { message: 'invalid float number' } }, 'bad');
      });
    },
  });
}

describe(createServiceApp.name, () => {
  const verdict = makeApp(verdictDialect);
  const ledger = makeApp(ledgerDialect);
  const registry = makeApp(registryDialect);

  it('answers /livez and /readyz without authentication', async () => {
    await request(verdict).get('/livez').expect(200, { status: 'ok', service: 'test' });
    const ready = await request(verdict).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { db: 'ok' } });
    const notReady = await request(makeApp(verdictDialect, false)).get('/readyz').expect(503);
    expect(notReady.body.checks.db).toBe('db down');
  });

  it('echoes a request id', async () => {
    const res = await request(verdict).get('/livez').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    const generated = await request(verdict).get('/livez');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one line per answer with its request id, never a header, and nothing for probes', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        );
        done();
      },
    });
    const app = makeApp(verdictDialect, true, pino({ level: 'info' }, sink));
    await request(app).post('/echo?x=1').set('X-Request-Id', 'req-1').set('X-API-Key', 'secret-key-value').send({ a: 1 }).expect(200);
    await request(app).get('/boom').set('X-Request-Id', 'req-2').expect(500);
    await request(app).get('/livez').expect(200);
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.msg === 'request completed')).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: 'req-1',
        req: { method: 'POST', url: '/echo?x=1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({ level: 50, reqId: 'req-2', req: { method: 'GET', url: '/boom' }, res: { statusCode: 500 } }),
    ]);
    const unhandled = lines.find((l) => l.msg === 'unhandled error');
    expect(unhandled).toMatchObject({ reqId: 'req-2', err: { message: 'secret internals' }, errorId: expect.any(String) });
    expect(JSON.stringify(lines)).not.toContain('secret-key-value');
    expect(lines.some((l) => JSON.stringify(l).includes('/livez'))).toBe(false);
  });

  it('parses JSON bodies', async () => {
    await request(verdict)
      .post('/echo')
      .send({ a: 1 })
      .expect(200, { got: { a: 1 } });
  });

  it.each([
    ['verdict', verdict, 400, { code: 'malformed_json', message: 'Request body is not valid JSON' }],
    ['ledger', ledger, 400, { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' }],
    ['registry', registry, 400, { detail: 'Request body is not valid JSON' }],
  ])('rejects malformed JSON in the %s shape', async (_name, app, status, body) => {
    const res = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it.each([
    ['verdict', verdict, 415, 'unsupported_media_type'],
    ['ledger', ledger, 400, 'VALIDATION_ERROR'],
  ])('rejects a wrong content type in the %s shape', async (_name, app, status, code) => {
    const res = await request(app).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });

  it('rejects a wrong content type in the registry shape', async () => {
    const res = await request(registry).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Content-Type must be application/json' });
  });

  it.each([
    ['verdict', verdict, 413, 'payload_too_large'],
    ['ledger', ledger, 400, 'VALIDATION_ERROR'],
  ])('rejects an oversize body in the %s shape', async (_name, app, status, code) => {
    const res = await request(app)
      .post('/echo')
      .send({ big: 'x'.repeat(2000) });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });

  it.each([
    ['verdict', verdict, { code: 'not_found' }],
    ['ledger', ledger, { code: 'NOT_FOUND' }],
    ['registry', registry, { detail: 'No route for GET /nowhere' }],
  ])('answers unknown routes with 404 in the %s shape', async (_name, app, body) => {
    const res = await request(app).get('/nowhere').expect(404);
    expect(res.body).toMatchObject(body);
  });

  it('answers 405 with Allow for another method on a known path, 404 for an unknown path, in each dialect', async () => {
    const v = await request(verdict).delete('/echo').expect(405);
    expect(v.headers.allow).toBe('POST');
    expect(v.body).toEqual({ code: 'method_not_allowed', message: 'DELETE is not allowed on /echo; allowed: POST' });
    const r = await request(registry).put('/coded').expect(405);
    expect(r.headers.allow).toBe('GET, HEAD');
    expect(r.body).toEqual({ detail: 'PUT is not allowed on /coded; allowed: GET, HEAD' });
    const l = await request(ledger).post('/coded').expect(405);
    expect(l.body.code).toBe('METHOD_NOT_ALLOWED');
    await request(verdict).get('/nowhere').expect(404);
    expect((await request(verdict).delete('/nowhere').expect(404)).headers.allow).toBeUndefined();
  });

  it('answers a path parameter that is not percent-encoded UTF-8 with 400 validation_failed, not malformed_json', async () => {
    expect((await request(verdict).get('/things/caf%C3%A9').expect(200)).body).toEqual({ id: 'café' });
    expect((await request(verdict).get('/things/%ff').expect(400)).body).toEqual({
      code: 'validation_failed',
      message: 'A path parameter is not percent-encoded UTF-8',
    });
    expect((await request(registry).get('/things/%C3%28').expect(400)).body).toEqual({
      detail: 'A path parameter is not percent-encoded UTF-8',
    });
    expect((await request(ledger).get('/things/%ff').expect(400)).body.code).toBe('VALIDATION_ERROR');
  });

  it('renders a coded AppError with its details', async () => {
    await request(verdict)
      .get('/coded')
      .expect(409, { code: 'already_decided', message: 'The approval is already resolved', details: { id: 'apr-1' } });
  });

  it('answers an unhandled error with 500 and an error id, never the stack', async () => {
    const res = await request(verdict).get('/boom').expect(500);
    expect(res.body.code).toBe('internal_error');
    expect(res.body.details.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
    const reg = await request(registry).get('/boom').expect(500);
    expect(reg.body.detail).toMatch(/error id/);
    const led = await request(ledger).get('/boom').expect(500);
    expect(led.body.code).toBe('INTERNAL_ERROR');
  });

  it('gives the registry 422 for a missing field and 400 for a wrong type', async () => {
    const missing = await request(registry).post('/validate').send({}).expect(422);
    expect(missing.body.detail).toContain("name: 'name' is required");
    await request(registry).post('/validate-type').send({}).expect(400);
  });

  it('serves /docs and /openapi.json from this host only', async () => {
    await request(verdict).get('/openapi.json').expect(200);
    const page = await request(verdict).get('/docs/').expect(200);
    expect(page.text).toContain('swagger-ui');
    expect(page.text).not.toMatch(/src="https?:\/\//);
    expect(page.text).not.toMatch(/href="https?:\/\//);
  });

  it('runs `before` on every route but /livez, /readyz and /metrics, the docs included, ahead of the body parser', async () => {
    const seen: string[] = [];
    const app = createServiceApp({
      service: 'test',
      dialect: ledgerDialect,
      logger: createLogger('test', 'silent'),
      openapi: { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} },
      before: (a) =>
        a.use((req, res, next) => {
          seen.push(`${req.path} ${req.body === undefined ? 'unparsed' : 'parsed'}`);
          res.setHeader('X-Before', '1');
          next();
        }),
      routes: (a) => a.post('/echo', (req, res) => void res.json(req.body)),
    });
    for (const path of ['/livez', '/readyz', '/metrics'])
      expect((await request(app).get(path).expect(200)).headers['x-before']).toBeUndefined();
    expect((await request(app).get('/openapi.json').expect(200)).headers['x-before']).toBe('1');
    expect((await request(app).get('/docs/').expect(200)).headers['x-before']).toBe('1');
    expect((await request(app).post('/echo').send({ a: 1 }).expect(200)).headers['x-before']).toBe('1');
    expect(seen).toEqual(['/openapi.json unparsed', '/docs/ unparsed', '/echo unparsed']);
  });
});
