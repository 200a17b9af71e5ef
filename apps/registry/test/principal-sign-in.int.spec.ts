import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';

/** The sign-in fields of principals (docs/identity.md "Console sign-in"). */
describe('principal sign-in fields', () => {
  let h: RegistryHarness;
  let a: TenantFixture;
  let b: TenantFixture;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const issuer = 'https://idp.example.com';

  beforeAll(async () => {
    h = await startTestRegistry();
    a = await createTenantWithAdmin(h, 'acme');
    b = await createTenantWithAdmin(h, 'globex');
  });
  afterAll(() => h.stop());

  const create = (key: string, body: object) => request(h.url).post('/api/v1/principals').set(bearer(key)).send(body);
  const patch = (key: string, id: string, body: object) => request(h.url).patch(`/api/v1/principals/${id}`).set(bearer(key)).send(body);

  /** Binding an OpenID Connect identity is a platform admin's (docs/identity.md "Privilege boundaries"). */
  const createIn = (t: TenantFixture, body: object) => create(h.adminKey, { ...body, tenant_id: t.tenant.id });

  it('creates a human with an OpenID Connect identity and console permissions, and defaults to none', async () => {
    const res = await createIn(a, {
      kind: 'human',
      name: 'Alice',
      oidc_issuer: issuer,
      oidc_subject: 'alice',
      console_permissions: ['read', 'approve', 'read'],
    }).expect(201);
    expect(res.body).toMatchObject({ oidc_issuer: issuer, oidc_subject: 'alice', console_permissions: ['read', 'approve'] });
    const plain = await create(a.admin.key, { kind: 'human', name: 'Bob' }).expect(201);
    expect(plain.body).toMatchObject({ oidc_issuer: null, oidc_subject: null, console_permissions: [] });
    const read = await request(h.url).get(`/api/v1/principals/${res.body.id}`).set(bearer(a.admin.key)).expect(200);
    expect(read.body.console_permissions).toEqual(['read', 'approve']);
  });

  it('binds one issuer and subject to one principal across the platform (409), another subject is free', async () => {
    await createIn(a, { kind: 'human', name: 'C', oidc_issuer: issuer, oidc_subject: 'carol' }).expect(201);
    const dup = await createIn(b, { kind: 'human', name: 'C2', oidc_issuer: issuer, oidc_subject: 'carol' }).expect(409);
    expect(dup.body).toEqual({ detail: 'This oidc_issuer and oidc_subject are already bound to another principal' });
    const other = await create(b.admin.key, { kind: 'human', name: 'D' }).expect(201);
    await patch(h.adminKey, other.body.id, { oidc_issuer: issuer, oidc_subject: 'carol' }).expect(409);
    await patch(h.adminKey, other.body.id, { oidc_issuer: issuer, oidc_subject: 'dave' }).expect(200);
  });

  it("refuses a tenant admin setting, changing or removing an OpenID Connect identity (403), so it cannot take another tenant's person", async () => {
    const missing = {
      detail: 'Missing permission: platform_admin (only a platform admin sets, changes or removes oidc_issuer and oidc_subject)',
    };
    const taken = await create(b.admin.key, { kind: 'human', name: 'Thief', oidc_issuer: issuer, oidc_subject: 'ivan' }).expect(403);
    expect(taken.body).toEqual(missing);
    const mine = await create(b.admin.key, { kind: 'human', name: 'Mine', console_permissions: ['read'] }).expect(201);
    expect((await patch(b.admin.key, mine.body.id, { oidc_issuer: issuer, oidc_subject: 'ivan' }).expect(403)).body).toEqual(missing);
    await patch(b.admin.key, mine.body.id, { oidc_issuer: issuer }).expect(403);
    // nothing was bound: tenant A's platform admin binds its own person, and tenant B's admin learns nothing by a 409
    const ivan = await createIn(a, { kind: 'human', name: 'Ivan', oidc_issuer: issuer, oidc_subject: 'ivan' }).expect(201);
    expect((await patch(a.admin.key, ivan.body.id, { oidc_issuer: null, oidc_subject: null }).expect(403)).body).toEqual(missing);
    expect((await patch(a.admin.key, ivan.body.id, { oidc_issuer: issuer, oidc_subject: 'ivan' }).expect(403)).body).toEqual(missing);
    expect(
      (await create(b.admin.key, { kind: 'human', name: 'Probe', oidc_issuer: issuer, oidc_subject: 'ivan' }).expect(403)).body,
    ).toEqual(missing);
    // the tenant admin still reads the binding and changes everything else
    const read = await request(h.url).get(`/api/v1/principals/${ivan.body.id}`).set(bearer(a.admin.key)).expect(200);
    expect(read.body).toMatchObject({ oidc_issuer: issuer, oidc_subject: 'ivan' });
    const renamed = await patch(a.admin.key, ivan.body.id, { name: 'Ivan I.', console_permissions: ['read'] }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Ivan I.', oidc_issuer: issuer, oidc_subject: 'ivan', console_permissions: ['read'] });
  });

  it('refuses half of the pair, a malformed issuer and sign-in fields on an agent (422)', async () => {
    const half = await createIn(a, { kind: 'human', name: 'E', oidc_issuer: issuer }).expect(422);
    expect(half.body.detail).toMatch(/together/);
    await createIn(a, { kind: 'human', name: 'E', oidc_issuer: 'https://x.example/?q=1', oidc_subject: 'e' }).expect(422);
    await createIn(a, { kind: 'human', name: 'E', oidc_issuer: 'idp.example', oidc_subject: 'e' }).expect(400);
    const agent = await create(a.admin.key, { kind: 'agent', name: 'bot', console_permissions: ['read'] }).expect(422);
    expect(agent.body.detail).toMatch(/human principals only/);
    await create(a.admin.key, { kind: 'agent', name: 'bot', console_permissions: ['everything'] }).expect(400);
  });

  it('unbinds with both null and keeps the binding on a PATCH that does not name it', async () => {
    const p = await createIn(a, { kind: 'human', name: 'F', oidc_issuer: issuer, oidc_subject: 'frank' }).expect(201);
    const renamed = await patch(a.admin.key, p.body.id, { name: 'Frank', console_permissions: ['read'] }).expect(200);
    expect(renamed.body).toMatchObject({ oidc_subject: 'frank', console_permissions: ['read'] });
    await patch(h.adminKey, p.body.id, { oidc_subject: null }).expect(422);
    const unbound = await patch(h.adminKey, p.body.id, { oidc_issuer: null, oidc_subject: null }).expect(200);
    expect(unbound.body).toMatchObject({ oidc_issuer: null, oidc_subject: null, console_permissions: ['read'] });
  });

  it('never grants console permissions the caller lacks (403), as with minting a key', async () => {
    const res = await create(a.admin.key, { kind: 'human', name: 'G', console_permissions: ['platform_admin'] }).expect(403);
    expect(res.body.detail).toMatch(/Missing permission: platform_admin/);
    const p = await create(a.admin.key, { kind: 'human', name: 'G' }).expect(201);
    await patch(a.admin.key, p.body.id, { console_permissions: ['platform_admin'] }).expect(403);
    const reader = await createPrincipalWithKey(h, a.admin.key, { kind: 'human', permissions: ['read'] });
    await patch(reader.key, p.body.id, { console_permissions: ['read'] }).expect(403);
  });

  it("keeps a principal whose console holds platform_admin out of a tenant admin's reach", async () => {
    const p = await create(h.adminKey, {
      kind: 'human',
      name: 'Root',
      tenant_id: a.tenant.id,
      console_permissions: ['platform_admin'],
    }).expect(201);
    const res = await patch(a.admin.key, p.body.id, { oidc_issuer: issuer, oidc_subject: 'mallory' }).expect(403);
    expect(res.body.detail).toMatch(/platform admin/);
    await request(h.url)
      .post('/api/v1/api-keys')
      .set(bearer(a.admin.key))
      .send({ principal_id: p.body.id, permissions: ['read'] })
      .expect(403);
    await patch(h.adminKey, p.body.id, { oidc_issuer: issuer, oidc_subject: 'root' }).expect(200);
  });
});
