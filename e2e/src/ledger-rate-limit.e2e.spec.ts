import net from 'node:net';
import { createLedgerTenant, ledgerClient, sealBody, startLedgerStack, type LedgerStack } from './ledger-harness';

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

describe('ledger rate limits (Document 3 "Limits", DESIGN.md section 8)', () => {
  let stack: LedgerStack;

  beforeAll(async () => {
    stack = await startLedgerStack();
  });
  afterAll(() => stack.stop());

  it('puts X-RateLimit-Limit, -Remaining and -Reset on every response to a keyed request, errors included', async () => {
    const t = await createLedgerTenant(stack);
    const c = ledgerClient(stack.url, t.writerKey);
    const responses = [
      await c.post('/streams/rl-1/facts', sealBody(t.tenantId)).expect(201),
      await c.get('/streams/rl-1/facts').expect(200),
      await c.post('/streams/rl-1/facts', { nope: true }).expect(400),
      await c.post('/streams/rl-1/facts', sealBody('tnt-other')).expect(403),
      await c.get('/facts/fct-missing').expect(404),
      await c.get('/health').expect(200),
      await c.get('/no-such-route').expect(404),
    ];
    // The standard bucket refills about 17 tokens a second, so Remaining is only bounded here
    // (the exact count down is checked with the 1-per-minute tenant below).
    for (const res of responses) {
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(99);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
      expect(res.headers['x-ratelimit-policy']).toBe('1000;w=60;burst=100');
    }
  });

  it('answers 429 RATE_LIMITED with Retry-After once the burst is spent, and stores nothing', async () => {
    const t = await createLedgerTenant(stack, TINY);
    const c = ledgerClient(stack.url, t.writerKey);
    for (let i = 0; i < 3; i++) {
      const ok = await c.post('/streams/rl-2/facts', sealBody(t.tenantId)).expect(201);
      expect(ok.headers['x-ratelimit-limit']).toBe('3');
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      expect(ok.headers['x-ratelimit-policy']).toBe('1;w=60;burst=3');
    }
    const refused = await c.post('/streams/rl-2/facts', sealBody(t.tenantId)).expect(429);
    expect(refused.body).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Rate limit exceeded/), details: { retry_after_seconds: expect.any(Number) } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM facts WHERE stream_id = 'rl-2'`);
    expect(rows[0].n).toBe(3);
    // Reads spend the same bucket.
    await c.get('/streams/rl-2/facts').expect(429);
  });

  it('keeps one bucket per API key: another key of the same tenant still has its own', async () => {
    const t = await createLedgerTenant(stack, TINY);
    for (let i = 0; i < 3; i++) await ledgerClient(stack.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(stack.url, t.readOnlyKey).get('/health').expect(429);
    await ledgerClient(stack.url, t.sealOnlyKey).get('/health').expect(200);
  });

  it('shares each bucket across replicas through Redis', async () => {
    const replica = await stack.startReplica();
    const t = await createLedgerTenant(stack, TINY);
    await ledgerClient(stack.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(replica.url, t.readOnlyKey).get('/health').expect(200);
    await ledgerClient(stack.url, t.readOnlyKey).get('/health').expect(200);
    const refused = await ledgerClient(replica.url, t.readOnlyKey).get('/health').expect(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
  });

  it('keeps limiting, per replica, when Redis is down; /health then answers 503 degraded', async () => {
    const t = await createLedgerTenant(stack, TINY);
    const down = await stack.startReplica({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}` });
    const c = ledgerClient(down.url, t.writerKey);
    const ok = await c.post('/streams/rl-down/facts', sealBody(t.tenantId)).expect(201);
    expect(ok.headers['x-ratelimit-remaining']).toBe('2');
    const health = await c.get('/health').expect(503);
    expect(health.body).toMatchObject({ status: 'degraded', checks: { database: 'ok', signing_key: 'ok', redis: expect.not.stringMatching(/^ok$/) } });
    await c.get('/streams/rl-down/facts').expect(200);
    const refused = await c.get('/streams/rl-down/facts').expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
