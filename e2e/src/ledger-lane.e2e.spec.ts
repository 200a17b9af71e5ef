import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { createLedgerTenant, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';

/**
 * POST /streams/<id>/facts runs on a fast lane before express (ADR 0006); what the lane does not take
 * (here: gzip bodies) goes through express and tsoa. Both must answer alike, rate-limit headers included.
 */
describe('the seal fast lane and the general path', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let other: LedgerTenant;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    const generous = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };
    [t, other] = await Promise.all([createLedgerTenant(stack, generous), createLedgerTenant(stack, generous)]);
  });
  afterAll(() => stack.stop());

  interface Answer {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: { code?: string; fact_id?: string; position?: number; message?: string; details?: unknown };
  }
  const post = (path: string, body: Buffer, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        new URL(path, stack.ledger.url),
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const answer = (a: Answer) => ({
    status: a.status,
    code: a.body.code,
    sealed: a.body.fact_id !== undefined,
    limited: a.headers['x-ratelimit-limit'] !== undefined,
    // Errors word for word: both paths run FactsService.seal, which parses the body once.
    error: a.status >= 400 ? { message: a.body.message, details: a.body.details } : undefined,
  });

  it('gives the same answers on both, good bodies and bad', async () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['ok', JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:a', custom_payload: { n: 1 } }), t.writerKey],
      ['no key', JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:a', custom_payload: { n: 1 } }), undefined],
      ['bad key', JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:a', custom_payload: {} }), `ak-${'0'.repeat(64)}`],
      ['read-only key', JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:a', custom_payload: {} }), t.readOnlyKey],
      ['other tenant', JSON.stringify({ tenant_id: other.tenantId, actor: 'agent:a', custom_payload: {} }), t.writerKey],
      ['malformed', '{"tenant_id":', t.writerKey],
      ['not an object', '[1]', t.writerKey],
      ['missing actor', JSON.stringify({ tenant_id: t.tenantId, custom_payload: {} }), t.writerKey],
      ['extra field', JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: {}, surprise: 1 }), t.writerKey],
      ['payload not an object', JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: [1] }), t.writerKey],
      ['empty client_ref', JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: {}, client_ref: '' }), t.writerKey],
      ['lone surrogate', JSON.stringify({ tenant_id: t.tenantId, actor: 'a\ud800', custom_payload: {} }), t.writerKey],
      ['nul in actor', JSON.stringify({ tenant_id: t.tenantId, actor: 'a\u0000', custom_payload: {} }), t.writerKey],
      ['nul in client_ref', JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: {}, client_ref: '\u0000' }), t.writerKey],
      ['nul in tenant_id', JSON.stringify({ tenant_id: `${t.tenantId}\u0000`, actor: 'a', custom_payload: {} }), t.writerKey],
      [
        'nul in a payload value',
        JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: { a: [{ b: 'x\u0000' }] } }),
        t.writerKey,
      ],
      [
        'nul in a payload key',
        JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: { a: { ['b\u0000']: 1 } } }),
        t.writerKey,
      ],
      [
        'lone surrogate in a payload key',
        JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: { ['\udc00']: 1 } }),
        t.writerKey,
      ],
      ['nul in an unknown field', JSON.stringify({ tenant_id: t.tenantId, actor: 'a', custom_payload: {}, ['x\u0000']: 1 }), t.writerKey],
      ['nul and no actor', JSON.stringify({ tenant_id: t.tenantId, custom_payload: { s: '\u0000' } }), t.writerKey],
      ['nul without a key', JSON.stringify({ tenant_id: t.tenantId, actor: 'a\u0000', custom_payload: {} }), undefined],
      ['nul with a read-only key', JSON.stringify({ tenant_id: t.tenantId, actor: 'a\u0000', custom_payload: {} }), t.readOnlyKey],
    ];
    for (const [name, body, key] of cases) {
      const headers: Record<string, string> = key ? { 'X-API-Key': key } : {};
      const fast = await post(`/streams/lane-${name.replace(/ /g, '-')}/facts`, Buffer.from(body), headers);
      const general = await post(`/streams/lane-${name.replace(/ /g, '-')}/facts`, gzipSync(Buffer.from(body)), {
        ...headers,
        'Content-Encoding': 'gzip',
      });
      expect({ name, ...answer(fast) }).toEqual({ name, ...answer(general) });
      expect(fast.status).not.toBe(500);
    }
  });

  it('gives the same answers to U+0000 in the path and in the query string', async () => {
    const body = Buffer.from(JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:a', custom_payload: { n: 1 } }));
    for (const path of ['/streams/lane%00nul/facts', '/streams/lane-q/facts?probe=%00', '/streams/lane-q/facts?pro%00be=1']) {
      const fast = await post(path, body, { 'X-API-Key': t.writerKey });
      const general = await post(path, gzipSync(body), { 'X-API-Key': t.writerKey, 'Content-Encoding': 'gzip' });
      expect(fast.status).toBe(400);
      expect({ path, ...answer(fast) }).toEqual({ path, ...answer(general) });
    }
  });

  it('answers a replay by client_ref with 200 and the first fact, whichever path sealed it', async () => {
    const body = Buffer.from(JSON.stringify({ tenant_id: t.tenantId, actor: 'agent:r', custom_payload: { n: 2 }, client_ref: 'lane-r-1' }));
    const first = await post('/streams/lane-replay/facts', body, { 'X-API-Key': t.writerKey });
    const again = await post('/streams/lane-replay/facts', gzipSync(body), { 'X-API-Key': t.writerKey, 'Content-Encoding': 'gzip' });
    const thrice = await post('/streams/lane-replay/facts', body, { 'X-API-Key': t.writerKey });
    expect([first.status, again.status, thrice.status]).toEqual([201, 200, 200]);
    expect(new Set([first.body.fact_id, again.body.fact_id, thrice.body.fact_id]).size).toBe(1);
  });
});
