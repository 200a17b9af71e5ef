import { createHash } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import request from 'supertest';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const COOKIE = /^arbiter_session=([A-Za-z0-9_-]{43}); HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=3600$/;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { code?: string; verdict?: string; consultation_id?: string; caller_principal_id?: string };
}

/** The session cookie (docs/verdicts.md "Authentication", docs/identity.md) through HTTP. */
describe('session cookie (POST/DELETE /v1/sessions)', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let db: Client;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'sessions-a');
    db = new Client({ connectionString: stack.databaseUrl('verdict') });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const url = () => stack.verdict.url;
  const open = async (key: string) => {
    const res = await request(url()).post('/v1/sessions').set('X-API-Key', key).expect(201);
    const cookie = COOKIE.exec(String(res.headers['set-cookie']))?.[1];
    if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
    return { res, cookie };
  };
  const op = { action: 'calendar.read', resource: 'c', scope: {} };
  /**
   * A check with exactly these headers, on the fast lane or (gzip, which the lane passes on) on the
   * tsoa route.
   */
  const check = (headers: Record<string, string>, lane: 'fast' | 'tsoa' = 'fast', body: object = op) =>
    new Promise<Answer>((resolve, reject) => {
      const raw = Buffer.from(JSON.stringify(body));
      const payload = lane === 'fast' ? raw : gzipSync(raw);
      const req = http.request(
        new URL(`/${t.id}/v1/check`, url()),
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(payload.length),
            ...(lane === 'tsoa' ? { 'Content-Encoding': 'gzip' } : {}),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const withCookie = (cookie: string) => ({ Cookie: `theme=dark; arbiter_session=${cookie}` });

  it('opens a session for a key holding check: 201 {expires_at} and the cookie with exactly its attributes', async () => {
    const before = Date.now();
    const { res } = await open(t.agent.key);
    expectConforms(res, 'post', '/v1/sessions');
    expect(Object.keys(res.body)).toEqual(['expires_at']);
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 1);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(res.headers['set-cookie']).toHaveLength(1);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('stores only the SHA-256 of the cookie, with the key it stands for', async () => {
    const { cookie } = await open(t.agent.key);
    const { rows } = await db.query('SELECT * FROM cookie_sessions WHERE token_hash = $1', [sha256(cookie)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenant_id: t.id, principal_id: t.agent.id, key_hash: sha256(t.agent.key) });
    expect(rows[0].key_id).toMatch(/^key-/);
    const all = JSON.stringify((await db.query('SELECT * FROM cookie_sessions')).rows);
    expect(all).not.toContain(cookie);
    expect(all).not.toContain(t.agent.key);
  });

  it("authenticates check on the fast lane and on the tsoa route, and resolve, as the key's principal", async () => {
    const { cookie } = await open(t.agent.key);
    for (const lane of ['fast', 'tsoa'] as const) {
      const res = await check(withCookie(cookie), lane);
      expect([lane, res.status, res.body.verdict]).toEqual([lane, 200, 'allowed']);
      const record = await verdictApi(stack, t.agent.key, t.id).consultation(res.body.consultation_id!).expect(200);
      expect(record.body.caller_principal_id).toBe(t.agent.id);
    }
    const resolved = await request(url())
      .post(`/${t.id}/v1/resolve`)
      .set(withCookie(cookie))
      .send({ ...op, context: {} })
      .expect(200);
    expect(resolved.body).toMatchObject({ operation_status: 'complete', verdict: 'allowed' });
  });

  it('authenticates nothing else: a cookie alone is 401 missing_credentials on consultations, approvals, whoami and sessions', async () => {
    const { cookie } = await open(t.adminKey); // an admin key: the session still reaches only check and resolve
    const checked = await check(withCookie(cookie));
    expect(checked.status).toBe(200);
    const id = checked.body.consultation_id!;
    const refused: Array<[string, request.Response]> = [
      ['consultation', await request(url()).get(`/${t.id}/v1/consultations/${id}`).set(withCookie(cookie))],
      ['consultations', await request(url()).get(`/${t.id}/v1/consultations`).set(withCookie(cookie))],
      ['create approval', await request(url()).post(`/${t.id}/v1/approvals`).set(withCookie(cookie)).send({ consultation_id: id })],
      ['approvals', await request(url()).get(`/${t.id}/v1/approvals`).set(withCookie(cookie))],
      ['signing keys', await request(url()).get(`/${t.id}/v1/signing-keys`).set(withCookie(cookie))],
      ['whoami', await request(url()).get('/v1/whoami').set(withCookie(cookie))],
      // A session cannot open another (and so cannot outlive its hour).
      ['open session', await request(url()).post('/v1/sessions').set(withCookie(cookie))],
    ];
    for (const [what, res] of refused) expect([what, res.status, res.body.code]).toEqual([what, 401, 'missing_credentials']);
  });

  it('answers 401 missing_credentials with neither key nor cookie, invalid_credentials for an unknown, malformed or expired cookie, on both paths', async () => {
    const { cookie } = await open(t.agent.key);
    await db.query("UPDATE cookie_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256(cookie)]);
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_credentials'],
      [{ Cookie: 'theme=dark' }, 'missing_credentials'],
      [{ Cookie: 'arbiter_session=' }, 'missing_credentials'],
      [withCookie('A'.repeat(43)), 'invalid_credentials'],
      [withCookie('not-a-session'), 'invalid_credentials'],
      [withCookie(cookie), 'invalid_credentials'],
    ];
    for (const [headers, code] of cases) {
      for (const lane of ['fast', 'tsoa'] as const) {
        const res = await check(headers, lane);
        expect({ headers, lane, status: res.status, code: res.body.code }).toEqual({ headers, lane, status: 401, code });
      }
    }
  });

  it('lets the X-API-Key decide when both are sent', async () => {
    const { cookie } = await open(t.agent.key);
    const res = await check({ ...withCookie(cookie), 'X-API-Key': `ak-${'0'.repeat(64)}` });
    expect([res.status, res.body.code]).toEqual([401, 'invalid_credentials']);
  });

  it('refuses to open a session for a key without check (403) or without a key (401)', async () => {
    const reader = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['read'] });
    const res = await request(url()).post('/v1/sessions').set('X-API-Key', reader.key).expect(403);
    expect(res.body).toMatchObject({ code: 'insufficient_permission', details: { permission: 'check' } });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await request(url()).post('/v1/sessions').expect(401)).body.code).toBe('missing_credentials');
  });

  it('dies with its key: revoking the key through the registry ends the session at once', async () => {
    const p = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['check'] });
    const { cookie } = await open(p.key);
    expect((await check(withCookie(cookie))).status).toBe(200);
    await request(stack.registry.url).delete(`/api/v1/api-keys/${p.keyId}`).set('Authorization', `Bearer ${t.adminKey}`).expect(200);
    // Well within the 30 s key cache: the revocation is announced on Redis and the session re-resolves its key on every use.
    await eventually(
      "both lanes to refuse the revoked key's session",
      async () => {
        for (const lane of ['fast', 'tsoa'] as const) {
          const res = await check(withCookie(cookie), lane);
          expect([lane, res.status, res.body.code]).toEqual([lane, 401, 'invalid_credentials']);
        }
        return true;
      },
      { timeoutMs: 2_000 },
    );
  });

  it("follows its principal: a deactivated principal's session answers 403 principal_deactivated", async () => {
    const p = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['check'] });
    const { cookie } = await open(p.key);
    expect((await check(withCookie(cookie))).status).toBe(200);
    await registryApi(stack, t.adminKey).patchPrincipal(p.principalId, { active: false });
    await eventually(
      'the session to follow its deactivated principal',
      async () => {
        const res = await check(withCookie(cookie));
        expect([res.status, res.body.code]).toEqual([403, 'principal_deactivated']);
        return true;
      },
      { timeoutMs: 2_000 },
    );
  });

  it('ends with DELETE /v1/sessions: 204, the cookie cleared, the row gone, the cookie refused from then on', async () => {
    const { cookie } = await open(t.agent.key);
    const ended = await request(url()).delete('/v1/sessions').set(withCookie(cookie)).expect(204);
    expect(ended.text).toBe('');
    expect(ended.headers['set-cookie']).toEqual(['arbiter_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0']);
    expect((await db.query('SELECT 1 FROM cookie_sessions WHERE token_hash = $1', [sha256(cookie)])).rowCount).toBe(0);
    for (const lane of ['fast', 'tsoa'] as const) {
      const res = await check(withCookie(cookie), lane);
      expect([lane, res.status, res.body.code]).toEqual([lane, 401, 'invalid_credentials']);
    }
    expect((await request(url()).delete('/v1/sessions').set(withCookie(cookie)).expect(401)).body.code).toBe('invalid_credentials');
    expect((await request(url()).delete('/v1/sessions').set('X-API-Key', t.agent.key).expect(401)).body.code).toBe('missing_credentials');
  });
});
