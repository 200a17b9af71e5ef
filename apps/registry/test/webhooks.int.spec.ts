import { createPublicKey } from 'node:crypto';
import request from 'supertest';
import { parseKeyEncryptionKey, generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { startRegistry } from '../src/server';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';

describe('registry webhook subscriptions and signing key', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let reader: Api;
  let scopeId: string;
  const url = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'webhooks');
    admin = api(h, t.admin.key);
    reader = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] })).key);
    scopeId = (await createScope(admin, 'main')).id;
  });
  afterAll(() => h.stop());

  it('creates, reads, lists, updates and deletes a scope subscription', async () => {
    const created = await admin
      .post(`/api/v1/scopes/${scopeId}/webhooks`, { url, events: ['approval.requested', 'approval.resolved'], description: 'chat' })
      .expect(201);
    expectConforms(created, 'post', '/api/v1/scopes/{scope_id}/webhooks');
    expect(created.body).toMatchObject({
      scope_id: scopeId,
      url,
      events: ['approval.requested', 'approval.resolved'],
      description: 'chat',
      deciders: [],
      status: 'active',
      consecutive_failures: 0,
      version: 1,
      created_by: t.admin.principalId,
    });
    const id = created.body.id as string;
    expect(id).toMatch(/^whk-[0-9a-f]{24}$/);

    const got = await reader.get(`/api/v1/webhooks/${id}`).expect(200);
    expectConforms(got, 'get', '/api/v1/webhooks/{subscription_id}');
    // Everything but the secret, which only the creation answer holds.
    const { secret, ...subscription } = created.body;
    expect(secret).toMatch(/^whsec_/);
    expect(got.body).toEqual(subscription);
    const listed = await reader.get(`/api/v1/scopes/${scopeId}/webhooks`).expect(200);
    expectConforms(listed, 'get', '/api/v1/scopes/{scope_id}/webhooks');
    expect(listed.body.items.map((s: { id: string }) => s.id)).toContain(id);

    const patched = await admin.patch(`/api/v1/webhooks/${id}`, { events: ['*'], description: 'everything' }).expect(200);
    expectConforms(patched, 'patch', '/api/v1/webhooks/{subscription_id}');
    expect(patched.body).toMatchObject({ events: ['*'], description: 'everything', version: 2, url });

    await admin.delete(`/api/v1/webhooks/${id}`).expect(204);
    await reader.get(`/api/v1/webhooks/${id}`).expect(404);
    await admin.delete(`/api/v1/webhooks/${id}`).expect(404);
  });

  it('creates tenant-level subscriptions with a deciders filter, hidden from scope-restricted keys', async () => {
    const created = await admin.post('/api/v1/webhooks', { url, events: ['approval.requested'], deciders: ['role-finance'] }).expect(201);
    expectConforms(created, 'post', '/api/v1/webhooks');
    expect(created.body).toMatchObject({ scope_id: null, deciders: ['role-finance'] });
    const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['admin'], scope_ids: [scopeId] });
    const r = api(h, restricted.key);

    const tenantLevel = (await reader.get('/api/v1/webhooks?level=tenant').expect(200)).body.items.map((s: { id: string }) => s.id);
    const forbidden = await r.post('/api/v1/webhooks', { url, events: ['approval.requested'] }).expect(403);

    expect(tenantLevel).toContain(created.body.id);
    expect(forbidden.body.detail).toContain('tenant-level');
    await r.get(`/api/v1/webhooks/${created.body.id}`).expect(404);
    expect((await r.get('/api/v1/webhooks').expect(200)).body.items.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
  });

  it('needs admin to create, update and delete', async () => {
    const missing = await reader.post(`/api/v1/scopes/${scopeId}/webhooks`, { url, events: ['approval.requested'] }).expect(403);
    const id = (await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, { url, events: ['rule.updated'] }).expect(201)).body.id;

    expect(missing.body).toEqual({ detail: 'Missing permission: admin' });
    await reader.patch(`/api/v1/webhooks/${id}`, { description: 'x' }).expect(403);
    await reader.delete(`/api/v1/webhooks/${id}`).expect(403);
    await reader.post(`/api/v1/webhooks/${id}/deliveries/dlv-000000000000000000000000/redeliver`).expect(403);
  });

  it('refuses bad URLs and unknown event types', async () => {
    const bad = async (body: object, status = 400) =>
      (await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, body).expect(status)).body.detail as string;
    expect(await bad({ url: 'ftp://127.0.0.1/x', events: ['approval.requested'] })).toContain('http or https');
    expect(await bad({ url: 'https://u:p@127.0.0.1/x', events: ['approval.requested'] })).toContain('credentials');
    expect(await bad({ url: 'http://no-such-host.invalid/x', events: ['approval.requested'] })).toContain('does not resolve');
    expect(await bad({ url, events: ['rule.deleted'] })).toContain('unknown event type rule.deleted');
    await bad({ url, events: [] });
    await bad({ events: ['approval.requested'] }, 422);
    await admin.post('/api/v1/scopes/scp-000000000000000000000000/webhooks', { url, events: ['approval.requested'] }).expect(404);
  });

  it('publishes the webhook key without authentication, as JWK and PEM of the same key', async () => {
    const res = await request(h.url).get('/.well-known/webhook-key').expect(200);

    expectConforms(res, 'get', '/.well-known/webhook-key');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.kid).toMatch(/^webhooks:\d{4}(\.\d+)?$/);
    expect(res.body).toMatchObject({
      alg: 'ES256',
      jwk: { kty: 'EC', crv: 'P-256', kid: res.body.kid, alg: 'ES256', use: 'sig' },
      not_after: null,
    });
    expect(res.body.jwk.d).toBeUndefined();
    const fromJwk = createPublicKey({ key: res.body.jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    expect(fromJwk).toBe(res.body.pem);
    expect(res.body.keys.map((k: { kid: string }) => k.kid)).toEqual([res.body.kid]);
  });

  it('rotates the key (platform admins): the new key signs, the old one stays published with not_after', async () => {
    const before = (await request(h.url).get('/.well-known/webhook-key').expect(200)).body;
    const refused = await admin.post('/api/v1/admin/webhook-key/rotate', { mode: 'emergency' }).expect(403);
    const platform = api(h, h.adminKey);

    const rotated = await platform.post('/api/v1/admin/webhook-key/rotate', { mode: 'emergency' }).expect(201);
    const notDue = await platform.post('/api/v1/admin/webhook-key/rotate', { mode: 'scheduled' }).expect(400);

    expect(refused.body).toEqual({ detail: 'Missing permission: platform_admin' });
    expectConforms(rotated, 'post', '/api/v1/admin/webhook-key/rotate');
    expect(rotated.body).toMatchObject({ mode: 'emergency', retired: [before.kid] });
    expect(rotated.body.kid).not.toBe(before.kid);
    expect(notDue.body.detail).toContain('already has a key');
    const after = (await request(h.url).get('/.well-known/webhook-key').expect(200)).body;
    expect(after.kid).toBe(rotated.body.kid);
    expect(after.keys.find((k: { kid: string }) => k.kid === before.kid)).toMatchObject({ pem: before.pem, not_after: expect.any(String) });
  });

  it('refuses to start with a KEY_ENCRYPTION_KEY that does not open the stored key', async () => {
    const wrong = parseKeyEncryptionKey(generateKeyEncryptionKey());

    await expect(
      startRegistry({ ...h.registry.ctx.config, PORT: 0, KEY_ENCRYPTION_KEY: wrong }, createLogger('registry', 'silent')),
    ).rejects.toMatchObject({
      code: 'decryption_failed',
    });
  });
});

describe('registry webhook URLs without WEBHOOK_ALLOW_PRIVATE', () => {
  let h: RegistryHarness;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    h = await startTestRegistry({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    const t = await createTenantWithAdmin(h, 'ssrf');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'main')).id;
  });
  afterAll(() => h.stop());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.5/hook',
    'http://192.168.1.20/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0x7f.1/hook',
  ])('refuses %s (private, loopback or link-local)', async (target) => {
    const res = await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, { url: target, events: ['approval.requested'] }).expect(400);

    expect(res.body.detail).toContain('not a public unicast address');
  });
});
