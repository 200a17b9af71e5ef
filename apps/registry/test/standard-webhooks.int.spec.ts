import { verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createPrincipalWithKey, createTenantWithAdmin, type RegistryHarness, type TenantFixture } from './harness';
import { api, expectConforms, sql, type Api } from './fixtures';
import type { Received, Receiver } from './receiver';
import { startDeliveryRig, type DeliveryRig } from './delivery-rig';

/**
 * Standard Webhooks (docs/webhooks.md "Standard Webhooks"): real deliveries, driven through the
 * internal API as the worker drives them, received by a real HTTP server and verified with the
 * `standardwebhooks` reference library — not with the registry's own code.
 */
describe('registry webhooks: Standard Webhooks signatures and secrets', () => {
  let rig: DeliveryRig;
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let reader: Api;
  let scopeId: string;
  let receiver: Receiver;

  const internal = (path: string, body: object) => rig.internal(path, body);
  const relay = () => rig.relay();
  /** One worker pass: relay, then run every dispatched attempt, one after the other. */
  const pass = async () => {
    const out = [];
    for (const d of (await relay()).dispatch) out.push(await rig.attempt(d.delivery_id, d.attempt));
    return out;
  };
  const subscribe = async () => {
    const res = await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, { url: receiver.url, events: ['approval.requested'] }).expect(201);
    return { id: res.body.id as string, secret: res.body.secret as string, res };
  };
  /** Requests an approval and delivers its event: the one request the receiver gets. */
  const deliverOne = async (action: string): Promise<Received> => {
    receiver.received.length = 0;
    await rig.requestApproval(action);
    const reports = await pass();
    expect(reports.map((r) => r.outcome)).toEqual(['succeeded']);
    expect(receiver.received).toHaveLength(1);
    return receiver.received[0];
  };
  const headersOf = (r: Received) => r.headers as Record<string, string>;
  /** The reference library's verdict: the parsed body, or the error it threw. */
  const check = (secret: string, r: Received, raw = r.raw) => {
    try {
      return new Webhook(secret).verify(raw, headersOf(r));
    } catch (err) {
      return err;
    }
  };
  const rotate = (id: string, body?: object) => admin.post(`/api/v1/webhooks/${id}/secret/rotate`, body);

  beforeAll(async () => {
    rig = await startDeliveryRig('stdwebhooks', { WEBHOOK_RETRY_BASE_MS: '0' });
    ({ h, t, admin, scopeId, receiver } = rig);
    reader = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] })).key);
  });
  afterEach(() => rig.reset());
  afterAll(() => rig.stop());

  it('shows the secret once, at creation; GET, lists and PATCH never show it, and the database holds it encrypted', async () => {
    const { id, secret, res } = await subscribe();

    expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/webhooks');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body).toMatchObject({ secret_created_at: expect.any(String), previous_secret_expires_at: null });
    const tenantLevel = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['approval.requested'] }).expect(201);
    expectConforms(tenantLevel, 'post', '/api/v1/webhooks');
    expect(tenantLevel.body.secret).toMatch(/^whsec_/);
    expect(tenantLevel.body.secret).not.toBe(secret);
    const answers = [
      await reader.get(`/api/v1/webhooks/${id}`).expect(200),
      await reader.get(`/api/v1/scopes/${scopeId}/webhooks`).expect(200),
      await reader.get('/api/v1/webhooks').expect(200),
      await admin.patch(`/api/v1/webhooks/${id}`, { description: 'edited' }).expect(200),
    ];
    expectConforms(answers[0], 'get', '/api/v1/webhooks/{subscription_id}');
    const { secret: _shown, ...rest } = res.body;
    expect(answers[0].body).toEqual(rest);
    for (const a of answers) {
      expect(a.text).not.toContain(secret.slice(6));
      expect(a.text).not.toContain('whsec_');
      expect(a.text).not.toMatch(/"secret"\s*:/);
    }
    const [row] = await sql<{ secret_ciphertext: string }>(h, `SELECT secret_ciphertext FROM webhook_subscriptions WHERE id = $1`, [id]);
    expect(row.secret_ciphertext).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row.secret_ciphertext).not.toContain(secret.slice(6, 30));
    expect(row.secret_ciphertext).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('base64url').slice(0, 24));
  });

  it('signs a delivery so the standardwebhooks library verifies it with the secret; the ECDSA headers are still there; a tampered body fails', async () => {
    const { id, secret } = await subscribe();

    const got = await deliverOne('deploy');

    const hdr = headersOf(got);
    expect(hdr['webhook-id']).toBe(hdr['x-service-delivery']);
    expect(hdr['webhook-id']).toMatch(/^dlv-[0-9a-f]{24}$/);
    expect(hdr['webhook-timestamp']).toBe(hdr['x-service-timestamp']);
    expect(hdr['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(check(secret, got)).toEqual(got.body);
    expect(check(secret, got, got.raw.replace('deploy', 'deplox'))).toBeInstanceOf(WebhookVerificationError);
    expect(check(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, got)).toBeInstanceOf(WebhookVerificationError);
    // The ECDSA scheme is unchanged: node:crypto verifies it with the published key.
    const key = (await request(h.url).get('/.well-known/webhook-key').expect(200)).body;
    expect(hdr['x-service-key-id']).toBe(key.kid);
    const ecdsa = Buffer.from(hdr['x-service-signature'], 'hex');
    expect(
      verify('sha256', Buffer.from(`${hdr['x-service-timestamp']}.${got.raw}`), { key: key.pem, dsaEncoding: 'ieee-p1363' }, ecdsa),
    ).toBe(true);
    expect((await reader.get(`/api/v1/webhooks/${id}/deliveries`).expect(200)).body.items[0].id).toBe(hdr['webhook-id']);
  });

  it('verifies with the node:crypto receiver docs/webhooks.md shows, as written there', async () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../docs/webhooks.md'), 'utf8');
    const code = /The same with node:crypto alone:\s*```js[^\n]*\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toContain('function isAuthentic');
    const isAuthentic = new Function('require', `${code}\nreturn isAuthentic;`)(require) as (
      headers: Record<string, string>,
      raw: Buffer,
      secret: string,
    ) => boolean;
    const { id, secret } = await subscribe();
    const rotated = (await rotate(id).expect(200)).body.secret as string;

    const got = await deliverOne('documented receiver');

    const raw = Buffer.from(got.raw, 'utf8');
    expect(isAuthentic(headersOf(got), raw, secret)).toBe(true);
    expect(isAuthentic(headersOf(got), raw, rotated)).toBe(true);
    expect(isAuthentic(headersOf(got), Buffer.from(got.raw.replace('documented', 'documentex')), rotated)).toBe(false);
    expect(isAuthentic(headersOf(got), raw, `whsec_${Buffer.alloc(32, 3).toString('base64')}`)).toBe(false);
    expect(
      isAuthentic({ ...headersOf(got), 'webhook-timestamp': String(Number(headersOf(got)['webhook-timestamp']) - 600) }, raw, secret),
    ).toBe(false);
  });

  it('keeps the webhook-id across retries of one message; each attempt verifies', async () => {
    const { secret } = await subscribe();
    receiver.respond = (_req, i) => (i < 2 ? 503 : 200);
    await rig.requestApproval('retry');

    const outcomes = [...(await pass()), ...(await pass()), ...(await pass())].map((r) => r.outcome);

    expect(outcomes).toEqual(['retry_scheduled', 'retry_scheduled', 'succeeded']);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3']);
    for (const r of receiver.received) expect(check(secret, r)).toEqual(r.body);
  });

  it('rotates: the new secret once; both secrets sign during the overlap; after it, only the new one', async () => {
    const { id, secret: old } = await subscribe();
    const before = await deliverOne('before rotation');
    expect(check(old, before)).toEqual(before.body);

    const rotated = await rotate(id).expect(200);

    expectConforms(rotated, 'post', '/api/v1/webhooks/{subscription_id}/secret/rotate');
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    // The default overlap is 24 h (WEBHOOK_SECRET_OVERLAP_SECONDS), counted by the database clock.
    const overlap = Date.parse(rotated.body.previous_secret_expires_at) - Date.parse(rotated.body.secret_created_at);
    expect(overlap).toBe(86_400_000);
    const shown = await reader.get(`/api/v1/webhooks/${id}`).expect(200);
    expect(shown.text).not.toContain(fresh.slice(6));
    expect(shown.body).toMatchObject({
      secret_created_at: rotated.body.secret_created_at,
      previous_secret_expires_at: rotated.body.previous_secret_expires_at,
      version: 2,
    });

    const during = await deliverOne('during overlap');
    expect(headersOf(during)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(check(old, during)).toEqual(during.body);
    expect(check(fresh, during)).toEqual(during.body);
    expect(check(fresh, during, `${during.raw} `)).toBeInstanceOf(WebhookVerificationError);

    // The overlap ends (tests move the database clock's mark rather than wait).
    await sql(h, `UPDATE webhook_subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const after = await deliverOne('after overlap');
    expect(headersOf(after)['webhook-signature'].split(' ')).toHaveLength(1);
    expect(check(fresh, after)).toEqual(after.body);
    expect(check(old, after)).toBeInstanceOf(WebhookVerificationError);
    const [row] = await sql(h, `SELECT previous_secret_ciphertext, previous_secret_expires_at FROM webhook_subscriptions WHERE id = $1`, [
      id,
    ]);
    expect(row).toEqual({ previous_secret_ciphertext: null, previous_secret_expires_at: null });
    expect((await reader.get(`/api/v1/webhooks/${id}`).expect(200)).body.previous_secret_expires_at).toBeNull();
  });

  it('overlap_seconds 0 drops the old secret at once; a second rotation during an overlap drops the oldest', async () => {
    const { id, secret: first } = await subscribe();
    const second = (await rotate(id, { overlap_seconds: 3600 }).expect(200)).body;
    const third = (await rotate(id, { overlap_seconds: 600 }).expect(200)).body;
    expect(Date.parse(third.previous_secret_expires_at) - Date.parse(third.secret_created_at)).toBe(600_000);

    const overlapping = await deliverOne('two rotations');

    expect(headersOf(overlapping)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(check(third.secret, overlapping)).toEqual(overlapping.body);
    expect(check(second.secret, overlapping)).toEqual(overlapping.body);
    expect(check(first, overlapping)).toBeInstanceOf(WebhookVerificationError);

    const immediate = (await rotate(id, { overlap_seconds: 0 }).expect(200)).body;
    expect(immediate.previous_secret_expires_at).toBeNull();
    const alone = await deliverOne('no overlap');
    expect(check(immediate.secret, alone)).toEqual(alone.body);
    expect(check(third.secret, alone)).toBeInstanceOf(WebhookVerificationError);
  });

  it('gives a subscription made before secrets existed one at its first delivery; a rotation then hands out a usable secret', async () => {
    const { id } = await subscribe();
    // As the migration leaves an older subscription: no secret at all.
    await sql(h, `UPDATE webhook_subscriptions SET secret_ciphertext = NULL, secret_created_at = NULL WHERE id = $1`, [id]);
    expect((await reader.get(`/api/v1/webhooks/${id}`).expect(200)).body.secret_created_at).toBeNull();

    const legacy = await deliverOne('legacy');

    // Never sent without the header (fail closed): signed with a secret made for it.
    expect(headersOf(legacy)['webhook-signature']).toMatch(/^v1,\S+$/);
    expect((await reader.get(`/api/v1/webhooks/${id}`).expect(200)).body.secret_created_at).toEqual(expect.any(String));
    const { secret } = (await rotate(id).expect(200)).body;
    const next = await deliverOne('after first rotation');
    expect(check(secret, next)).toEqual(next.body);
  });

  it('sends nothing when a secret does not decrypt (fail closed), and delivers once it is rotated', async () => {
    const a = await subscribe();
    const b = await subscribe();
    // b's ciphertext under a's id: the associated data no longer matches.
    await sql(
      h,
      `UPDATE webhook_subscriptions SET secret_ciphertext = (SELECT secret_ciphertext FROM webhook_subscriptions WHERE id = $2) WHERE id = $1`,
      [a.id, b.id],
    );
    await sql(h, `UPDATE webhook_subscriptions SET deleted_at = now() WHERE id = $1`, [b.id]);
    await rig.requestApproval('swapped');
    const [d] = (await relay()).dispatch;

    const refused = await internal(`/webhook-deliveries/${d.delivery_id}/attempts`, { attempt: d.attempt });

    expect(refused.status).toBe(500);
    expect(receiver.received).toHaveLength(0);
    const delivery = (await reader.get(`/api/v1/webhooks/${a.id}/deliveries/${d.delivery_id}`).expect(200)).body;
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    const { secret } = (await rotate(a.id, { overlap_seconds: 0 }).expect(200)).body;
    await internal(`/outbox/release`, { delivery_ids: [d.delivery_id] }).expect(200);
    expect((await pass()).map((r) => r.outcome)).toEqual(['succeeded']);
    expect(check(secret, receiver.received[0])).toEqual(receiver.received[0].body);
  });

  it('answers documented errors to bad rotation requests', async () => {
    const { id } = await subscribe();
    const tenantLevel = (await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['approval.requested'] }).expect(201)).body.id;
    const restricted = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'admin'], scope_ids: [scopeId] })).key);
    const other = await createTenantWithAdmin(h, 'stdwebhooks-other');

    const unknown = await rotate('whk-000000000000000000000000').expect(404);
    expect(unknown.body.detail).toContain('whk-000000000000000000000000');
    await reader.post(`/api/v1/webhooks/${id}/secret/rotate`, {}).expect(403);
    await request(h.url).post(`/api/v1/webhooks/${id}/secret/rotate`).send({}).expect(401);
    await api(h, other.admin.key).post(`/api/v1/webhooks/${id}/secret/rotate`, {}).expect(404);
    await restricted.post(`/api/v1/webhooks/${tenantLevel}/secret/rotate`, {}).expect(404);
    for (const overlap_seconds of [-1, 604_801, 1.5, 'soon']) {
      const bad = await rotate(id, { overlap_seconds });
      expect([bad.status, bad.body.detail]).toEqual([400, expect.stringContaining('overlap_seconds')]);
    }
    await rotate(id, { overlap_seconds: 60, extra: true }).expect(400);
    await request(h.url)
      .post(`/api/v1/webhooks/${id}/secret/rotate`)
      .set('Content-Type', 'application/json')
      .send('{"overlap_seconds": ')
      .expect(400);
    // No body at all: the default overlap.
    const bare = await request(h.url)
      .post(`/api/v1/webhooks/${id}/secret/rotate`)
      .set('Authorization', `Bearer ${t.admin.key}`)
      .expect(200);
    expect(Date.parse(bare.body.previous_secret_expires_at) - Date.parse(bare.body.secret_created_at)).toBe(86_400_000);
    await admin.delete(`/api/v1/webhooks/${id}`).expect(204);
    await rotate(id).expect(404);
    // A scope-restricted admin may rotate the subscriptions of its scopes.
    const mine = (await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, { url: receiver.url, events: ['approval.requested'] }).expect(201))
      .body.id;
    expect((await restricted.post(`/api/v1/webhooks/${mine}/secret/rotate`, {}).expect(200)).body.subscription_id).toBe(mine);
  });
});
