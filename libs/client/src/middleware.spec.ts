import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import express from 'express';
import Redis from 'ioredis';
import request from 'supertest';
import { makeKey, signJws, TENANT, verdictClaims } from '../test/fixtures';
import { requireVerdict, verdictOf, type RequireVerdictOptions } from './middleware';
import { MemoryReplayGuard, redisReplayGuard, type ReplayGuard } from './replay-guard';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });

/** An enforcement point: POST /transfers/:account moves money only with a verdict bound to that transfer. */
function app(opts: Partial<RequireVerdictOptions> = {}) {
  const a = express();
  a.use(express.json());
  a.post(
    '/transfers/:account',
    requireVerdict({
      jwks: { keys: [key.jwk] },
      now: () => now,
      binding: (req) => ({
        action: 'payments.transfer',
        resource: `acct:${req.params.account}`,
        scope: { region: 'eu', env: 'prod' },
        parameters: { transfer: { amount: req.body.amount } },
      }),
      ...opts,
    }),
    (_req, res) => res.status(201).json({ done: true, consultation_id: verdictOf(res)?.claims.jti }),
  );
  return a;
}

const claims = (o: Record<string, unknown> = {}) => verdictClaims({ resource: 'acct:eu-1', ...o }, now);
const post = (jws?: string, amount = 12.5, a = app()) => {
  const r = request(a).post('/transfers/eu-1').send({ amount });
  return jws ? r.set('X-Arbiter-Verdict', jws) : r;
};

describe(requireVerdict.name, () => {
  it('lets through an allowed, unexpired verdict bound to exactly this operation', async () => {
    const res = await post(signJws(claims(), key)).expect(201);
    expect(res.body).toEqual({ done: true, consultation_id: 'cns-1' });
  });

  it('compares bindings as canonical JSON: member order does not matter', async () => {
    const jws = signJws(claims({ scope: { env: 'prod', region: 'eu' }, parameters: { transfer: { amount: 12.5 } } }), key);
    await post(jws).expect(201);
  });

  it('refuses a missing verdict with 403 verdict_missing', async () => {
    const res = await post().expect(403);
    expect(res.body).toEqual({ code: 'verdict_missing', message: expect.stringContaining('X-Arbiter-Verdict') });
  });

  it('refuses a verdict whose signature does not verify with 403 verdict_invalid', async () => {
    const [h, , s] = signJws(claims(), key).split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(claims({ parameters: { transfer: { amount: 99999 } } }))).toString('base64url')}.${s}`;
    const res = await post(forged, 99999).expect(403);
    expect(res.body.code).toBe('verdict_invalid');
    expect(res.body.message).toMatch(/^invalid_signature/);
  });

  it('refuses an expired verdict with 403 verdict_expired', async () => {
    const res = await post(signJws(verdictClaims({ resource: 'acct:eu-1' }, now - 3_600_000), key)).expect(403);
    expect(res.body.code).toBe('verdict_expired');
  });

  it('refuses a verdict that is not allowed with 403 verdict_not_allowed', async () => {
    const res = await post(signJws(claims({ verdict: 'approval_required' }), key)).expect(403);
    expect(res.body).toMatchObject({ code: 'verdict_not_allowed', details: { verdict: 'approval_required', consultation_id: 'cns-1' } });
  });

  it.each([
    ['action', { action: 'payments.refund' }, 12.5],
    ['resource', { resource: 'acct:eu-2' }, 12.5],
    ['scope', { scope: { region: 'us', env: 'prod' } }, 12.5],
    ['parameters', {}, 12.51],
  ])('refuses a verdict bound to another %s with 403 verdict_binding_mismatch naming it', async (field, override, amount) => {
    const res = await post(signJws(claims(override), key), amount).expect(403);
    expect(res.body).toMatchObject({ code: 'verdict_binding_mismatch', details: { fields: [field] } });
  });

  it('refuses a verdict of a key retired since (emergency rotation policy), unless told otherwise', async () => {
    const retired = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z', notAfter: new Date(now - 1000).toISOString() });
    const jws = signJws(verdictClaims({ resource: 'acct:eu-1' }, now - 5000), retired);
    const res = await post(jws, 12.5, app({ jwks: { keys: [retired.jwk] } })).expect(403);
    expect(res.body.code).toBe('verdict_key_retired');
    await post(jws, 12.5, app({ jwks: { keys: [retired.jwk] }, refuseRetiredKeys: false })).expect(201);
  });

  it('answers 503 verdict_unverifiable when the key set cannot be fetched', async () => {
    const fetch = (async () => new Response('down', { status: 502 })) as unknown as typeof globalThis.fetch;
    const res = await post(signJws(claims(), key), 12.5, app({ jwks: undefined, jwksUrl: 'http://verdict.invalid/jwks', fetch })).expect(
      503,
    );
    expect(res.body.code).toBe('verdict_unverifiable');
  });

  it('reads the verdict from another header and reports refusals to onRefuse', async () => {
    const refusals: string[] = [];
    const a = app({ header: 'X-Verdict', onRefuse: (_req, r) => refusals.push(r.code) });
    await request(a).post('/transfers/eu-1').send({ amount: 12.5 }).set('X-Verdict', signJws(claims(), key)).expect(201);
    await request(a).post('/transfers/eu-1').send({ amount: 12.5 }).set('X-Arbiter-Verdict', signJws(claims(), key)).expect(403);
    expect(refusals).toEqual(['verdict_missing']);
  });

  describe('context binding', () => {
    const context = { 'transfer.reference': { value: 'INV-7', source: 'erp' } };
    // The gateway's context_hash, computed here with another RFC 8785 writer and node:crypto.
    const hashOf = (ctx: object) =>
      `sha256:${createHash('sha256')
        .update(
          canonicalize({
            action: 'payments.transfer',
            resource: 'acct:eu-1',
            scope: { region: 'eu', env: 'prod' },
            parameters: { transfer: { amount: 12.5 } },
            context: ctx,
          })!,
          'utf8',
        )
        .digest('hex')}`;
    const withContext = (ctx: object) =>
      app({
        binding: (req) => ({
          action: 'payments.transfer',
          resource: `acct:${req.params.account}`,
          scope: { region: 'eu', env: 'prod' },
          parameters: { transfer: { amount: req.body.amount } },
          context: ctx as Record<string, unknown>,
        }),
      });

    it('lets through a verdict whose context_hash is that of the context the executor knows', async () => {
      await post(signJws(claims({ context_hash: hashOf(context) }), key), 12.5, withContext(context)).expect(201);
    });

    it('refuses a verdict obtained with other Facts (context_hash differs) with 403 verdict_binding_mismatch naming context', async () => {
      const other = { 'transfer.reference': { value: 'INV-8', source: 'erp' } };
      const res = await post(signJws(claims({ context_hash: hashOf(other) }), key), 12.5, withContext(context)).expect(403);
      expect(res.body).toMatchObject({ code: 'verdict_binding_mismatch', details: { fields: ['context'] } });
    });

    it('does not compare the context when the binding leaves it out', async () => {
      await post(signJws(claims({ context_hash: hashOf({ anything: { value: 1, source: 'x' } }) }), key)).expect(201);
    });
  });

  describe('replay guard', () => {
    const once = (guard: ReplayGuard) => app({ replayGuard: guard });

    it('lets a verdict through once and refuses it again with 403 verdict_replayed', async () => {
      const a = once(new MemoryReplayGuard({ now: () => now }));
      const jws = signJws(claims(), key);
      await post(jws, 12.5, a).expect(201);
      const again = await post(jws, 12.5, a).expect(403);
      expect(again.body).toMatchObject({ code: 'verdict_replayed', details: { consultation_id: 'cns-1' } });
      // Another verdict (another consultation) is its own.
      await post(signJws(claims({ jti: 'cns-2' }), key), 12.5, a).expect(201);
    });

    it('does not use the verdict up on a refused presentation (another operation)', async () => {
      const a = once(new MemoryReplayGuard({ now: () => now }));
      const jws = signJws(claims(), key);
      await post(jws, 99, a).expect(403);
      await post(jws, 12.5, a).expect(201);
    });

    it('refuses with 503 verdict_unverifiable when the guard cannot answer, and when it is full of unexpired verdicts', async () => {
      const broken: ReplayGuard = { firstUse: () => Promise.reject(new Error('redis down')) };
      const res = await post(signJws(claims(), key), 12.5, once(broken)).expect(503);
      expect(res.body).toMatchObject({ code: 'verdict_unverifiable', message: expect.stringContaining('redis down') });
      const full = once(new MemoryReplayGuard({ maxEntries: 1, now: () => now }));
      await post(signJws(claims(), key), 12.5, full).expect(201);
      expect((await post(signJws(claims({ jti: 'cns-2' }), key), 12.5, full).expect(503)).body.message).toMatch(/replay guard holds 1/);
    });

    it('forgets a verdict once it has expired (the memory stays bounded)', async () => {
      let clock = now;
      const guard = new MemoryReplayGuard({ maxEntries: 1, now: () => clock });
      expect(await guard.firstUse('t:cns-1', now + 1000)).toBe(true);
      expect(await guard.firstUse('t:cns-1', now + 1000)).toBe(false);
      clock = now + 1000;
      expect(await guard.firstUse('t:cns-2', now + 5000)).toBe(true);
      expect(guard.size).toBe(1);
    });

    it('shares the verdicts used among replicas through Redis: of two presentations at once exactly one passes', async () => {
      const redis = new Redis(process.env.ARBITER_TEST_REDIS_URL!, { lazyConnect: false });
      try {
        const prefix = `test-jti-${Date.now()}-${Math.random()}:`;
        const replicas = [
          once(redisReplayGuard(redis, { prefix, now: () => now })),
          once(redisReplayGuard(redis, { prefix, now: () => now })),
        ];
        const jws = signJws(claims(), key);
        const answers = await Promise.all(replicas.map((a) => post(jws, 12.5, a)));
        expect(answers.map((r) => r.status).sort()).toEqual([201, 403]);
        // Kept only until the verdict's exp (300 s after iat in these claims).
        const ttl = await redis.pttl(`${prefix}${TENANT}:cns-1`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(300_000);
      } finally {
        redis.disconnect();
      }
    });
  });
});
