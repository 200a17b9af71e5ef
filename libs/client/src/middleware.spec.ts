import express from 'express';
import request from 'supertest';
import { makeKey, signJws, TENANT, verdictClaims } from '../test/fixtures';
import { requireVerdict, verdictOf, type RequireVerdictOptions } from './middleware';

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
      binding: (req) => ({ action: 'payments.transfer', resource: `acct:${req.params.account}`, scope: { region: 'eu', env: 'prod' }, parameters: { transfer: { amount: req.body.amount } } }),
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
    const res = await post(signJws(claims(), key), 12.5, app({ jwks: undefined, jwksUrl: 'http://verdict.invalid/jwks', fetch })).expect(503);
    expect(res.body.code).toBe('verdict_unverifiable');
  });

  it('reads the verdict from another header and reports refusals to onRefuse', async () => {
    const refusals: string[] = [];
    const a = app({ header: 'X-Verdict', onRefuse: (_req, r) => refusals.push(r.code) });
    await request(a).post('/transfers/eu-1').send({ amount: 12.5 }).set('X-Verdict', signJws(claims(), key)).expect(201);
    await request(a).post('/transfers/eu-1').send({ amount: 12.5 }).set('X-Arbiter-Verdict', signJws(claims(), key)).expect(403);
    expect(refusals).toEqual(['verdict_missing']);
  });
});
