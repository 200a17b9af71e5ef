import { gzipSync } from 'node:zlib';
import openapi from '../../apps/ledger/openapi.json';
import { createLedgerTenant, ledgerClient, rawRequest, type LedgerTenant, type RawAnswer } from './ledger-harness';
import { startStack, type Stack } from './stack';

const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };

/**
 * "No silent bypass" (docs/ledger-formats.md): PostgreSQL cannot store U+0000, so the ledger refuses it
 * with 400 before a seal joins a group commit, and one caller's bad seal never fails the seals of
 * other callers that would have shared its statement. Through HTTP, on both doors of the seal: the
 * fast lane (plain JSON) and the general express/tsoa path (gzip bodies, which the lane leaves to it).
 */
describe('ledger: strings PostgreSQL cannot store', () => {
  let stack: Stack;
  let t: LedgerTenant;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    t = await createLedgerTenant(stack, GENEROUS);
  });
  afterAll(() => stack.stop());

  const doors = [
    ['the fast lane', (body: Buffer) => ({ body, headers: {} })],
    ['the general path', (body: Buffer) => ({ body: gzipSync(body), headers: { 'Content-Encoding': 'gzip' } })],
  ] as const;

  const poisons: Array<[string, (tenantId: string) => object, string]> = [
    ['U+0000 in actor', (tenantId) => ({ tenant_id: tenantId, actor: 'agent:\u0000evil', custom_payload: { n: 0 } }), 'actor'],
    [
      'U+0000 in client_ref',
      (tenantId) => ({ tenant_id: tenantId, actor: 'agent:p', custom_payload: { n: 0 }, client_ref: 'ref\u0000' }),
      'client_ref',
    ],
    [
      'U+0000 in a custom_payload key',
      (tenantId) => ({ tenant_id: tenantId, actor: 'agent:p', custom_payload: { order: { ['line\u0000']: 1 } } }),
      'custom_payload.order.line\u0000',
    ],
  ];

  let run = 0;

  describe.each(doors)('on %s', (_door, encode) => {
    it.each(poisons)('refuses one seal with %s with 400 and seals the 50 concurrent good ones', async (_label, poisoned, field) => {
      const streams = Array.from({ length: 5 }, (_, i) => `poison-${++run}-${i}`);
      const seal = (streamId: string, body: object) => {
        const { body: bytes, headers } = encode(Buffer.from(JSON.stringify(body)));
        return rawRequest(stack.ledger.url, `/streams/${streamId}/facts`, {
          body: bytes,
          headers: { 'X-API-Key': t.writerKey, ...headers },
        });
      };
      const good = Array.from(
        { length: 50 },
        (_, i) => () =>
          seal(streams[i % 5], { tenant_id: t.tenantId, actor: `agent:${i}`, custom_payload: { i }, client_ref: `good-${i}` }),
      );
      // The poisoned seal goes in the middle of the burst, to the first stream.
      const calls = [...good.slice(0, 25), () => seal(streams[0], poisoned(t.tenantId)), ...good.slice(25)];
      const answers: RawAnswer[] = await Promise.all(calls.map((call) => call()));

      const bad = answers[25];
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('U+0000'),
        details: { fields: [{ field, message: bad.body.message }] },
      });
      const goodAnswers = answers.filter((_, i) => i !== 25);
      expect(goodAnswers.map((a) => a.status)).toEqual(Array(50).fill(201));

      const reader = ledgerClient(stack.ledger.url, t.readOnlyKey);
      const stored: number[] = [];
      for (const s of streams) {
        const list = await reader.get(`/streams/${s}/facts?limit=1000`).expect(200);
        expect(list.body.count).toBe(10);
        stored.push(...list.body.facts.map((f: { custom_payload: { i: number } }) => f.custom_payload.i));
        const verified = await reader.post(`/streams/${s}/verify`).expect(200);
        expect(verified.body).toMatchObject({ valid: true, facts_verified: 10 });
      }
      expect(stored.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(new Set(goodAnswers.map((a) => a.body.fact_id)).size).toBe(50);
    });
  });

  describe('everywhere else: every path parameter, query string and body of the API', () => {
    // Generated from the committed OpenAPI document, so a new route is covered the day it is added.
    // The guard's other inputs (invalid UTF-8, numbers, nesting) on every service: storable-json.e2e.spec.ts.
    const operations = Object.entries(
      openapi.paths as Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>>,
    ).flatMap(([template, methods]) => Object.entries(methods).map(([method, op]) => ({ template, method: method.toUpperCase(), op })));
    const path = (template: string, poisoned?: string) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => (name === poisoned ? 'x%00y' : 'x'));
    const send = (method: string, url: string, body?: object) =>
      rawRequest(stack.ledger.url, url, { method, headers: { 'X-API-Key': stack.registry.adminKey }, body: body && JSON.stringify(body) });
    const expectRefused = (res: RawAnswer, field: string, what = 'U+0000') => {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(what),
        details: { fields: [{ field, message: res.body.message }] },
      });
    };

    it('covers every operation of the document', () => {
      expect(operations.length).toBeGreaterThanOrEqual(12);
    });

    it.each(operations.map((o) => [`${o.method} ${o.template}`, o] as const))(
      '%s: 400 naming the path parameter, the query parameter, the body member',
      async (_name, { template, method, op }) => {
        for (const name of (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)) {
          expectRefused(await send(method, path(template, name)), name);
        }
        expectRefused(await send(method, `${path(template)}?limit=1&probe=a%00b`), 'probe');
        expectRefused(await send(method, `${path(template)}?bad%00name=1`), 'bad\u0000name');
        if (op.requestBody) {
          expectRefused(await send(method, path(template), { nested: [{ ['k\u0000']: 'v' }] }), 'nested.0.k\u0000');
          // A lone surrogate has no UTF-8 form: refused the same way.
          expectRefused(await send(method, path(template), { s: 'a\ud800' }), 's', 'lone UTF-16 surrogate');
        }
      },
    );

    it('changed nothing on the way', async () => {
      const { rows } = await stack
        .db('ledger')
        .query(
          `SELECT (SELECT count(*)::int FROM streams WHERE stream_id = 'x') AS streams, (SELECT count(*)::int FROM signing_keys) AS keys`,
        );
      expect(rows[0]).toEqual({ streams: 0, keys: 1 });
    });
  });
});
