import net from 'node:net';
import type { RunningLedger } from '../../apps/ledger/src/server';
import { createLedgerTenant, ledgerClient, rawRequest, sealBody } from './ledger-harness';
import { startStack, type Stack } from './stack';

/** One request per minute after a burst of 3: the bucket cannot refill within a test. */
const TINY = { rate_limit: { tier: 'enterprise', requests_per_minute: 1, burst: 3 } };

/** A local port nothing listens on: a Redis that is down. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('ledger rate limits (docs/ledger-formats.md "Limits")', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
  });
  afterAll(() => stack.stop());

  it('puts X-RateLimit-Limit (per minute), -Remaining and -Reset (seconds to full) on every response to a keyed request, errors included', async () => {
    const t = await createLedgerTenant(stack);
    const c = ledgerClient(stack.ledger.url, t.writerKey);
    const responses = [
      await c.post('/streams/rl-1/facts', sealBody(t.tenantId)).expect(201),
      await c.get('/streams/rl-1/facts').expect(200),
      await c.post('/streams/rl-1/facts', { nope: true }).expect(400),
      await c.post('/streams/rl-1/facts', sealBody(t.tenantId, { actor: 'a\u0000' })).expect(400),
      await c.get('/facts/fct%00').expect(400),
      await c.post('/streams/rl-1/facts', sealBody('tnt-other')).expect(403),
      await c.get('/facts/fct-missing').expect(404),
      await c.get('/health').expect(200),
      await c.get('/.well-known/ledger-keys').expect(200),
      await c.get('/no-such-route').expect(404),
    ];
    // The standard bucket (1000 per minute, burst 100) refills about 17 tokens a second, so
    // Remaining and Reset are only bounded here (exact values with the 1-per-minute tenant below).
    for (const res of responses) {
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(99);
      // A full bucket is at most 100 tokens away: 6 s at 1000 per minute.
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(6);
      expect(res.headers['x-ratelimit-policy']).toBe('1000;w=60;burst=100');
    }
  });

  it('answers 429 RATE_LIMITED with Retry-After once the burst is spent, and stores nothing', async () => {
    const t = await createLedgerTenant(stack, TINY);
    const c = ledgerClient(stack.ledger.url, t.writerKey);
    for (let i = 0; i < 3; i++) {
      const ok = await c.post('/streams/rl-2/facts', sealBody(t.tenantId)).expect(201);
      expect(ok.headers['x-ratelimit-limit']).toBe('1');
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      expect(ok.headers['x-ratelimit-policy']).toBe('1;w=60;burst=3');
      // i + 1 tokens missing at one a minute: (i + 1) minutes to full, less what refilled meanwhile.
      expect(Number(ok.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60 * (i + 1));
      expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(60 * (i + 1) - 10);
    }
    const refused = await c.post('/streams/rl-2/facts', sealBody(t.tenantId)).expect(429);
    expect(refused.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Rate limit exceeded/),
      details: { retry_after_seconds: expect.any(Number) },
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-limit']).toBe('1');
    const { rows } = await stack.db('ledger').query(`SELECT count(*)::int AS n FROM facts WHERE stream_id = 'rl-2'`);
    expect(rows[0].n).toBe(3);
    // Reads spend the same bucket.
    await c.get('/streams/rl-2/facts').expect(429);
  });

  describe('requests without a valid key: one bucket per client address', () => {
    let tiny: RunningLedger;
    beforeAll(async () => {
      // The standard tier of this replica, which buckets of client addresses use: 4 at once, then 1 a minute.
      tiny = await stack.startReplica('ledger', { env: { RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '4' } });
    });
    let n = 0;
    /** A loopback source address of its own, so no other test (or test file) shares its bucket. */
    const freshAddress = () => `127.${100 + (process.pid % 100)}.${Math.floor(Math.random() * 250)}.${++n}`;
    const from = (address: string) => ({
      get: (path: string, headers: Record<string, string> = {}) => rawRequest(tiny.url, path, { headers, localAddress: address }),
      seal: (body: object, headers: Record<string, string> = {}) =>
        rawRequest(tiny.url, '/streams/rl-addr/facts', { body: JSON.stringify(body), headers, localAddress: address }),
    });

    it('counts 401s (no key, a bad key, on the seal lane and on express) and keyless endpoints, then answers 429', async () => {
      const me = from(freshAddress());
      const answers = [
        [await me.get('/facts/fct-x'), 401],
        [await me.seal(sealBody('tnt-x'), { 'X-API-Key': `ak-${'0'.repeat(64)}` }), 401],
        [await me.get('/.well-known/ledger-keys'), 200],
        [await me.get('/openapi.json'), 200],
      ] as const;
      answers.forEach(([res, status], i) => {
        expect(res.status).toBe(status);
        expect(res.headers['x-ratelimit-limit']).toBe('1');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(60 * (i + 1) - 10);
        expect(res.headers['x-ratelimit-policy']).toBe('1;w=60;burst=4');
      });
      const refused = await me.get('/health');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_seconds: expect.any(Number) } });
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect((await me.seal(sealBody('tnt-x'))).status).toBe(429);
    });

    it('keeps the address bucket apart from the key buckets and from other addresses', async () => {
      const t = await createLedgerTenant(stack, TINY);
      const me = from(freshAddress());
      for (let i = 0; i < 4; i++) expect((await me.get('/facts/fct-x')).status).toBe(401);
      expect((await me.get('/facts/fct-x')).status).toBe(429);
      const keyed = await me.get('/health', { 'X-API-Key': t.readOnlyKey });
      expect(keyed.status).toBe(200);
      expect(keyed.headers['x-ratelimit-remaining']).toBe('2');
      const other = await from(freshAddress()).get('/facts/fct-x');
      expect(other.status).toBe(401);
      expect(other.headers['x-ratelimit-remaining']).toBe('3');
    });

    it("answers 503 when the registry cannot check a key with the address bucket's headers", async () => {
      const orphan = await stack.startReplica('ledger', {
        env: { REGISTRY_URL: 'http://127.0.0.1:9', RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '4' },
      });
      const res = await rawRequest(orphan.url, '/health', {
        headers: { 'X-API-Key': `ak-${'1'.repeat(64)}` },
        localAddress: freshAddress(),
      });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['x-ratelimit-limit']).toBe('1');
      expect(res.headers['x-ratelimit-remaining']).toBe('3');
    });

    it("leaves the orchestrators' /livez and /readyz and the /metrics scrape exempt, without headers", async () => {
      const me = from(freshAddress());
      for (let i = 0; i < 6; i++) {
        for (const path of ['/livez', '/readyz', '/metrics']) {
          const res = await me.get(path);
          expect(res.status).toBe(200);
          expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        }
      }
      // Six rounds of the three spent nothing: the bucket of 4 is still full.
      expect((await me.get('/.well-known/ledger-keys')).headers['x-ratelimit-remaining']).toBe('3');
    });
  });

  it("puts the key's headers on a 500 INTERNAL_ERROR too", async () => {
    const t = await createLedgerTenant(stack, TINY);
    await stack.db('ledger').query('ALTER TABLE facts RENAME TO facts_away');
    let res;
    try {
      res = await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/facts/fct-000000000000000000000000');
    } finally {
      await stack.db('ledger').query('ALTER TABLE facts_away RENAME TO facts');
    }
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'INTERNAL_ERROR', message: 'Internal server error', details: { error_id: expect.any(String) } });
    expect(res.headers['x-ratelimit-limit']).toBe('1');
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('keeps one bucket per API key: another key of the same tenant still has its own', async () => {
    const t = await createLedgerTenant(stack, TINY);
    for (let i = 0; i < 3; i++) await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/health').expect(429);
    await ledgerClient(stack.ledger.url, t.sealOnlyKey).get('/health').expect(200);
  });

  it('shares each bucket across replicas through Redis', async () => {
    const replica = await stack.startReplica('ledger');
    const t = await createLedgerTenant(stack, TINY);
    await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(replica.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/health').expect(200);
    const refused = await ledgerClient(replica.url, t.readOnlyKey).get('/health').expect(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
  });

  it('keeps limiting, per replica, when Redis is down; /health then answers 503 degraded', async () => {
    const t = await createLedgerTenant(stack, TINY);
    const down = await stack.startReplica('ledger', { env: { REDIS_URL: `redis://127.0.0.1:${await deadPort()}` } });
    const c = ledgerClient(down.url, t.writerKey);
    const ok = await c.post('/streams/rl-down/facts', sealBody(t.tenantId)).expect(201);
    expect(ok.headers['x-ratelimit-remaining']).toBe('2');
    const health = await c.get('/health').expect(503);
    expect(health.body).toMatchObject({
      status: 'degraded',
      checks: { database: 'ok', signing_key: 'ok', redis: expect.not.stringMatching(/^ok$/) },
    });
    await c.get('/streams/rl-down/facts').expect(200);
    const refused = await c.get('/streams/rl-down/facts').expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
