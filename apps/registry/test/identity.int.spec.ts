import request from 'supertest';
import { Client } from 'pg';
import { createHash } from 'node:crypto';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';

describe('registry identity', () => {
  let h: RegistryHarness;
  let a: TenantFixture;
  let b: TenantFixture;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    h = await startTestRegistry();
    a = await createTenantWithAdmin(h, 'acme', { default_verdict: 'allowed', verdict_ttl_seconds: 600 });
    b = await createTenantWithAdmin(h, 'globex');
  });
  afterAll(() => h.stop());

  describe('tenants', () => {
    it('creates a tenant with server-assigned fields', async () => {
      const res = await request(h.url)
        .post('/api/v1/tenants')
        .set(bearer(h.adminKey))
        .send({ name: 'Initech', slug: 'initech' })
        .expect(201);
      expect(res.body).toMatchObject({ slug: 'initech', name: 'Initech', settings: {}, status: 'active' });
      expect(res.body.id).toMatch(/^tnt-[0-9a-f]{24}$/);
      expect(Date.parse(res.body.created_at)).not.toBeNaN();
      expect(res.body.updated_at).toBe(res.body.created_at);
      expect(res.body.created_by).toMatch(/^hum-/);
    });

    it('refuses a duplicate slug with 409', async () => {
      const res = await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x', slug: 'acme' }).expect(409);
      expect(res.body).toEqual({ detail: 'A tenant with slug acme already exists' });
    });

    it('refuses a slug written as a tenant id (400, nothing stored): an id is looked up before a slug, so it would name another tenant', async () => {
      const acme = (await request(h.url).get('/api/v1/tenants').set(bearer(h.adminKey)).expect(200)).body.items.find(
        (t: { slug: string }) => t.slug === 'acme',
      );
      for (const slug of [acme.id, 'tnt-aaaaaaaaaaaaaaaaaaaaaaaa', 'tnt-x']) {
        const res = await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x', slug }).expect(400);
        expect(res.body).toEqual({ detail: 'slug must not start with tnt-: that is how tenant ids are written' });
      }
      const slugs = (await request(h.url).get('/api/v1/tenants?limit=1000').set(bearer(h.adminKey)).expect(200)).body.items.map(
        (t: { slug: string }) => t.slug,
      );
      expect(slugs.filter((s: string) => s.startsWith('tnt-'))).toEqual([]);
      // A slug that only looks alike is a slug.
      await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x', slug: 'tnt' }).expect(201);
    });

    it('answers 422 for a missing field and 400 for a bad value or an unknown field', async () => {
      const missing = await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x' }).expect(422);
      expect(missing.body.detail).toMatch(/slug/);
      await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x', slug: 'Not A Slug' }).expect(400);
      await request(h.url).post('/api/v1/tenants').set(bearer(h.adminKey)).send({ name: 'x', slug: 'ok-slug', extra: 1 }).expect(400);
      await request(h.url)
        .post('/api/v1/tenants')
        .set(bearer(h.adminKey))
        .send({ name: 'x', slug: 'ttl', settings: { verdict_ttl_seconds: 7200 } })
        .expect(400);
    });

    it('lets only platform admins create tenants, naming the missing permission', async () => {
      const res = await request(h.url).post('/api/v1/tenants').set(bearer(a.admin.key)).send({ name: 'x', slug: 'nope' }).expect(403);
      expect(res.body).toEqual({ detail: 'Missing permission: platform_admin' });
    });

    it('lists every tenant for a platform admin and only its own for a tenant key', async () => {
      const all = await request(h.url).get('/api/v1/tenants').set(bearer(h.adminKey)).expect(200);
      expect(all.body.items.map((t: { slug: string }) => t.slug)).toEqual(expect.arrayContaining(['platform', 'acme', 'globex']));
      const own = await request(h.url).get('/api/v1/tenants').set(bearer(a.admin.key)).expect(200);
      expect(own.body).toEqual({ items: [expect.objectContaining({ id: a.tenant.id })], next_cursor: null });
    });

    it('paginates with limit and cursor', async () => {
      const first = await request(h.url).get('/api/v1/tenants?limit=2').set(bearer(h.adminKey)).expect(200);
      expect(first.body.items).toHaveLength(2);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await request(h.url)
        .get(`/api/v1/tenants?limit=2&cursor=${first.body.next_cursor}`)
        .set(bearer(h.adminKey))
        .expect(200);
      const ids = [...first.body.items, ...second.body.items].map((t: { id: string }) => t.id);
      expect(new Set(ids).size).toBe(ids.length);
      await request(h.url).get('/api/v1/tenants?cursor=garbage').set(bearer(h.adminKey)).expect(400);
      await request(h.url).get('/api/v1/tenants?limit=5000').set(bearer(h.adminKey)).expect(400);
    });

    it('updates name and settings (PATCH) by the tenant admin, never another tenant', async () => {
      const res = await request(h.url)
        .patch(`/api/v1/tenants/${a.tenant.id}`)
        .set(bearer(a.admin.key))
        .send({ name: 'Acme Corp', settings: { default_verdict: 'blocked', max_resolve_rounds: 5 } })
        .expect(200);
      expect(res.body).toMatchObject({ name: 'Acme Corp', settings: { default_verdict: 'blocked', max_resolve_rounds: 5 } });
      expect(res.body.updated_at >= res.body.created_at).toBe(true);
      await request(h.url).patch(`/api/v1/tenants/${b.tenant.id}`).set(bearer(a.admin.key)).send({ name: 'hijack' }).expect(404);
      await request(h.url).get(`/api/v1/tenants/${b.tenant.id}`).set(bearer(a.admin.key)).expect(404);
    });
  });

  describe('principals', () => {
    it('creates agents and humans with prefixed ids and roles', async () => {
      const agent = await request(h.url)
        .post('/api/v1/principals')
        .set(bearer(a.admin.key))
        .send({ kind: 'agent', name: 'bot' })
        .expect(201);
      expect(agent.body).toMatchObject({ tenant_id: a.tenant.id, kind: 'agent', active: true, status: 'active', roles: [] });
      expect(agent.body.id).toMatch(/^agn-/);
      const human = await request(h.url)
        .post('/api/v1/principals')
        .set(bearer(a.admin.key))
        .send({ kind: 'human', name: 'Ada', roles: ['role-finance', 'role-finance'] })
        .expect(201);
      expect(human.body.id).toMatch(/^hum-/);
      expect(human.body.roles).toEqual(['role-finance']);
    });

    it('rejects bad role ids and kinds', async () => {
      await request(h.url)
        .post('/api/v1/principals')
        .set(bearer(a.admin.key))
        .send({ kind: 'human', name: 'x', roles: ['admin'] })
        .expect(400);
      await request(h.url).post('/api/v1/principals').set(bearer(a.admin.key)).send({ kind: 'robot', name: 'x' }).expect(400);
    });

    it('keeps tenant admins inside their tenant', async () => {
      const res = await request(h.url)
        .post('/api/v1/principals')
        .set(bearer(a.admin.key))
        .send({ kind: 'agent', name: 'x', tenant_id: b.tenant.id })
        .expect(403);
      expect(res.body.detail).toMatch(/platform admin/);
      await request(h.url).get(`/api/v1/principals/${b.admin.principalId}`).set(bearer(a.admin.key)).expect(404);
      await request(h.url).patch(`/api/v1/principals/${b.admin.principalId}`).set(bearer(a.admin.key)).send({ active: false }).expect(404);
      const list = await request(h.url).get('/api/v1/principals').set(bearer(a.admin.key)).expect(200);
      expect(list.body.items.every((p: { tenant_id: string }) => p.tenant_id === a.tenant.id)).toBe(true);
    });

    it('deactivates a principal, whose keys then get 403 on the registry', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });
      await request(h.url).get('/api/v1/tenants').set(bearer(p.key)).expect(200);
      const res = await request(h.url)
        .patch(`/api/v1/principals/${p.principalId}`)
        .set(bearer(a.admin.key))
        .send({ active: false })
        .expect(200);
      expect(res.body).toMatchObject({ active: false, status: 'deactivated' });
      const denied = await request(h.url).get('/api/v1/tenants').set(bearer(p.key)).expect(403);
      expect(denied.body.detail).toMatch(/deactivated/);
    });
  });

  describe('API keys', () => {
    it('returns the plaintext once and stores only its SHA-256 hash', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read', 'check'] });
      const list = await request(h.url).get(`/api/v1/api-keys?principal_id=${p.principalId}`).set(bearer(a.admin.key)).expect(200);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0]).toMatchObject({
        id: p.keyId,
        permissions: ['read', 'check'],
        status: 'active',
        key_prefix: p.key.slice(0, 11),
      });
      expect(JSON.stringify(list.body)).not.toContain(p.key);
      const db = new Client({ connectionString: h.databaseUrl });
      await db.connect();
      try {
        const rows = await db.query('SELECT key_hash FROM api_keys WHERE id = $1', [p.keyId]);
        expect(rows.rows[0].key_hash).toBe(createHash('sha256').update(p.key).digest('hex'));
        const leak = await db.query(`SELECT count(*)::int AS n FROM api_keys WHERE key_hash = $1 OR key_prefix = $1`, [p.key]);
        expect(leak.rows[0].n).toBe(0);
      } finally {
        await db.end();
      }
    });

    it('refuses a key for another tenant principal, an unknown permission, a past expiry, and platform_admin from a tenant admin', async () => {
      await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: b.admin.principalId, permissions: ['read'] })
        .expect(404);
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });
      await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: p.principalId, permissions: ['fly'] })
        .expect(400);
      await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: p.principalId, permissions: ['read'], expires_at: '2001-01-01T00:00:00Z' })
        .expect(422);
      const local = new Date(Date.now() + 3_600_000).toISOString().replace('Z', ''); // read in the server's zone before
      const unnamed = await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: p.principalId, permissions: ['read'], expires_at: local })
        .expect(400);
      expect(unnamed.body.detail).toMatch(/^Invalid request: expires_at: .*Z or an offset/);
      // Past 9999 in UTC once its offset is applied: refused, nothing stored, and the tenant's keys still list.
      const before = (await request(h.url).get('/api/v1/api-keys?limit=1000').set(bearer(a.admin.key)).expect(200)).body.items.length;
      const year10000 = await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: p.principalId, permissions: ['read'], expires_at: '9999-12-31T23:59:59.999-00:01' })
        .expect(400);
      expect(year10000.body.detail).toMatch(/^Invalid request: expires_at: /);
      expect((await request(h.url).get('/api/v1/api-keys?limit=1000').set(bearer(a.admin.key)).expect(200)).body.items).toHaveLength(
        before,
      );
      await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: p.principalId, permissions: ['platform_admin'] })
        .expect(403);
      await request(h.url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ permissions: ['read'] })
        .expect(422);
    });

    it('revokes a key at once (DELETE) and reports it revoked', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });
      await request(h.url).get('/api/v1/tenants').set(bearer(p.key)).expect(200);
      const res = await request(h.url).delete(`/api/v1/api-keys/${p.keyId}`).set(bearer(a.admin.key)).expect(200);
      expect(res.body).toMatchObject({ status: 'revoked' });
      expect(res.body.revoked_at).toEqual(expect.any(String));
      await request(h.url).get('/api/v1/tenants').set(bearer(p.key)).expect(401);
      await request(h.url).delete(`/api/v1/api-keys/${b.admin.principalId}`).set(bearer(a.admin.key)).expect(404);
    });

    it('requires admin to manage keys, naming the permission', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });
      const res = await request(h.url).get('/api/v1/api-keys').set(bearer(p.key)).expect(403);
      expect(res.body).toEqual({ detail: 'Missing permission: admin' });
    });
  });

  describe('privilege boundaries', () => {
    const as = (key: string) => ({
      get: (path: string) => request(h.url).get(path).set(bearer(key)),
      post: (path: string, body: object) => request(h.url).post(path).set(bearer(key)).send(body),
      patch: (path: string, body: object) => request(h.url).patch(path).set(bearer(key)).send(body),
      delete: (path: string) => request(h.url).delete(path).set(bearer(key)),
    });
    const tier = { tier: 'enterprise', requests_per_minute: 6000, burst: 500 };

    it('refuses a tenant admin settings.rate_limit on its own tenant (403), and leaves the tenant as it was', async () => {
      const t = await createTenantWithAdmin(h, 'tier-self', { default_verdict: 'allowed' });

      const res = await as(t.admin.key)
        .patch(`/api/v1/tenants/${t.tenant.id}`, { settings: { default_verdict: 'allowed', rate_limit: tier } })
        .expect(403);

      expect(res.body).toEqual({ detail: 'settings.rate_limit (the ledger tier) is set by platform admins only' });
      expect((await as(t.admin.key).get(`/api/v1/tenants/${t.tenant.id}`).expect(200)).body.settings).toEqual({
        default_verdict: 'allowed',
      });
      const create = await as(t.admin.key)
        .post('/api/v1/tenants', { name: 'mine', slug: 'tier-mine', settings: { rate_limit: tier } })
        .expect(403);
      expect(create.body).toEqual({ detail: 'Missing permission: platform_admin' });
    });

    it("keeps the platform's settings.rate_limit when a tenant admin replaces the settings; only a platform admin changes it", async () => {
      const t = await createTenantWithAdmin(h, 'tier-kept', { rate_limit: tier });
      const path = `/api/v1/tenants/${t.tenant.id}`;

      const omitted = await as(t.admin.key)
        .patch(path, { settings: { default_verdict: 'blocked' } })
        .expect(200);
      const echoed = await as(t.admin.key)
        .patch(path, {
          settings: { default_verdict: 'allowed', rate_limit: { burst: 500, requests_per_minute: 6000, tier: 'enterprise' } },
        })
        .expect(200);
      const raised = await as(t.admin.key)
        .patch(path, { settings: { rate_limit: { ...tier, requests_per_minute: 60000 } } })
        .expect(403);
      const dropped = await as(t.admin.key)
        .patch(path, { settings: { rate_limit: {} } })
        .expect(403);
      const byPlatform = await as(h.adminKey)
        .patch(path, { settings: { rate_limit: { requests_per_minute: 100, burst: 10 } } })
        .expect(200);

      expect(omitted.body.settings).toEqual({ default_verdict: 'blocked', rate_limit: tier });
      expect(echoed.body.settings).toEqual({ default_verdict: 'allowed', rate_limit: tier });
      expect(raised.body.detail).toMatch(/platform admins only/);
      expect(dropped.body.detail).toMatch(/platform admins only/);
      expect(byPlatform.body.settings).toEqual({ rate_limit: { requests_per_minute: 100, burst: 10 } });
    });

    it('keeps the slug, the status and the settings bounds out of a tenant admin PATCH (400, nothing stored)', async () => {
      const t = await createTenantWithAdmin(h, 'fixed-slug', { verdict_ttl_seconds: 300 });
      const path = `/api/v1/tenants/${t.tenant.id}`;

      await as(t.admin.key).patch(path, { slug: 'acme' }).expect(400);
      await as(t.admin.key).patch(path, { status: 'active' }).expect(400);
      await as(t.admin.key)
        .patch(path, { settings: { verdict_ttl_seconds: 86400 } })
        .expect(400);
      await as(t.admin.key)
        .patch(path, { settings: { verdict_ttl_seconds: 0 } })
        .expect(400);
      await as(t.admin.key)
        .patch(path, { settings: { max_resolve_rounds: 1000 } })
        .expect(400);
      // No setting chooses another precedence order (docs/verdicts.md "Precedence"): one named so is refused, not ignored.
      await as(t.admin.key)
        .patch(path, { settings: { precedence: 'scope_first' } })
        .expect(400);
      // A default verdict the gateway's engine could not compile would freeze the tenant's policy: refused when written.
      const empty = await as(t.admin.key)
        .patch(path, { settings: { default_verdict: '' } })
        .expect(400);
      expect(empty.body.detail).toBe('body.settings.default_verdict must be a non-empty string');
      const created = await request(h.url)
        .post('/api/v1/tenants')
        .set(bearer(h.adminKey))
        .send({ slug: 'empty-default', name: 'Empty default', settings: { default_verdict: '' } });
      expect(created.status).toBe(400);

      expect((await as(t.admin.key).get(path).expect(200)).body).toMatchObject({
        slug: 'fixed-slug',
        settings: { verdict_ttl_seconds: 300 },
      });
    });

    it('never lets a tenant admin grant platform_admin or move a principal or key into another tenant', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });

      const grant = await as(a.admin.key)
        .post('/api/v1/api-keys', { principal_id: p.principalId, permissions: ['admin', 'platform_admin'] })
        .expect(403);
      await as(a.admin.key)
        .post('/api/v1/api-keys', { principal_id: p.principalId, permissions: ['read'], tenant_id: b.tenant.id })
        .expect(403);
      await as(a.admin.key).patch(`/api/v1/principals/${p.principalId}`, { tenant_id: b.tenant.id }).expect(400);

      expect(grant.body.detail).toMatch(/^Missing permission: platform_admin/);
      expect((await as(a.admin.key).get(`/api/v1/principals/${p.principalId}`).expect(200)).body.tenant_id).toBe(a.tenant.id);
      const keys = (await as(a.admin.key).get(`/api/v1/api-keys?principal_id=${p.principalId}`).expect(200)).body.items;
      expect(keys.map((k: { id: string }) => k.id)).toEqual([p.keyId]);
    });

    it('keeps a deactivated admin from reactivating itself (its keys answer 403)', async () => {
      const second = await createPrincipalWithKey(h, a.admin.key, { kind: 'human', permissions: ['admin'] });
      await as(a.admin.key).patch(`/api/v1/principals/${second.principalId}`, { active: false }).expect(200);

      const res = await as(second.key).patch(`/api/v1/principals/${second.principalId}`, { active: true }).expect(403);

      expect(res.body.detail).toMatch(/deactivated/);
      expect((await as(a.admin.key).get(`/api/v1/principals/${second.principalId}`).expect(200)).body.active).toBe(false);
    });

    it('keeps an admin key restricted to some scopes out of tenant-wide changes and inside its scopes for keys', async () => {
      const scope = (await as(a.admin.key).post('/api/v1/scopes', { name: 'restricted-admin' }).expect(201)).body.id;
      const other = (await as(a.admin.key).post('/api/v1/scopes', { name: 'restricted-other' }).expect(201)).body.id;
      const r = await createPrincipalWithKey(h, a.admin.key, { permissions: ['admin'], scope_ids: [scope] });
      const target = await createPrincipalWithKey(h, a.admin.key, { permissions: ['read'] });
      const restricted = as(r.key);

      const tenant = await restricted.patch(`/api/v1/tenants/${a.tenant.id}`, { settings: { default_verdict: 'blocked' } }).expect(403);
      await restricted.post('/api/v1/principals', { kind: 'agent', name: 'x' }).expect(403);
      await restricted.patch(`/api/v1/principals/${target.principalId}`, { roles: ['role-finance'] }).expect(403);
      const everyScope = await restricted.post('/api/v1/api-keys', { principal_id: target.principalId, permissions: ['read'] }).expect(403);
      await restricted
        .post('/api/v1/api-keys', { principal_id: target.principalId, permissions: ['read'], scope_ids: [scope, other] })
        .expect(403);
      const inside = await restricted
        .post('/api/v1/api-keys', { principal_id: target.principalId, permissions: ['read'], scope_ids: [scope] })
        .expect(201);
      await restricted.delete(`/api/v1/api-keys/${target.keyId}`).expect(403);
      await restricted.delete(`/api/v1/api-keys/${inside.body.id}`).expect(200);

      expect(tenant.body.detail).toMatch(/restricted to some scopes/);
      expect(everyScope.body.detail).toMatch(/^scope_ids must name only scopes of the creating key/);
      expect((await as(a.admin.key).get(`/api/v1/principals/${target.principalId}`).expect(200)).body.roles).toEqual([]);
      expect((await as(target.key).get('/api/v1/tenants').expect(200)).body.items).toHaveLength(1);
    });

    it('keeps keys minted by an expiring key within its lifetime', async () => {
      const principal = (await as(a.admin.key).post('/api/v1/principals', { kind: 'human', name: 'contractor' }).expect(201)).body.id;
      const ends = new Date(Date.now() + 3_600_000);
      const temp = (
        await as(a.admin.key)
          .post('/api/v1/api-keys', { principal_id: principal, permissions: ['admin'], expires_at: ends.toISOString() })
          .expect(201)
      ).body.key;

      const forever = await as(temp)
        .post('/api/v1/api-keys', { principal_id: principal, permissions: ['admin'] })
        .expect(403);
      await as(temp)
        .post('/api/v1/api-keys', {
          principal_id: principal,
          permissions: ['admin'],
          expires_at: new Date(ends.getTime() + 60_000).toISOString(),
        })
        .expect(403);
      const shorter = await as(temp)
        .post('/api/v1/api-keys', {
          principal_id: principal,
          permissions: ['read'],
          expires_at: new Date(ends.getTime() - 60_000).toISOString(),
        })
        .expect(201);

      expect(forever.body.detail).toMatch(/^expires_at must be no later than the creating key's own/);
      expect(Date.parse(shorter.body.expires_at)).toBe(ends.getTime() - 60_000);
    });

    it("keeps a platform admin's principal and keys out of reach of a tenant admin of the platform tenant", async () => {
      const platform = (await as(h.adminKey).get('/api/v1/tenants?limit=1000').expect(200)).body.items.find(
        (t: { slug: string }) => t.slug === 'platform',
      );
      const root = (await as(h.adminKey).get(`/api/v1/principals?tenant_id=${platform.id}&limit=1000`).expect(200)).body.items.find(
        (p: { name: string }) => p.name === 'platform-admin',
      );
      const rootKey = (await as(h.adminKey).get(`/api/v1/api-keys?tenant_id=${platform.id}&principal_id=${root.id}`).expect(200)).body
        .items[0];
      const local = (
        await as(h.adminKey)
          .post('/api/v1/principals', { kind: 'human', name: 'platform-tenant-admin', tenant_id: platform.id })
          .expect(201)
      ).body.id;
      const localKey = (
        await as(h.adminKey)
          .post('/api/v1/api-keys', { principal_id: local, permissions: ['admin'], tenant_id: platform.id })
          .expect(201)
      ).body.key;
      const tenantAdmin = as(localKey);

      const deactivate = await tenantAdmin.patch(`/api/v1/principals/${root.id}`, { active: false }).expect(403);
      await tenantAdmin.patch(`/api/v1/principals/${root.id}`, { roles: [] }).expect(403);
      const revoke = await tenantAdmin.delete(`/api/v1/api-keys/${rootKey.id}`).expect(403);
      await tenantAdmin.post('/api/v1/api-keys', { principal_id: root.id, permissions: ['admin'] }).expect(403);

      expect(deactivate.body).toEqual({ detail: 'Only a platform admin may change a principal holding platform_admin' });
      expect(revoke.body).toEqual({ detail: 'Only a platform admin may revoke a key holding platform_admin' });
      expect((await as(h.adminKey).get(`/api/v1/principals/${root.id}`).expect(200)).body).toMatchObject({
        active: true,
        roles: root.roles,
      });
      expect(
        (await as(h.adminKey).get(`/api/v1/api-keys?tenant_id=${platform.id}&principal_id=${root.id}`).expect(200)).body.items,
      ).toHaveLength(1);
    });
  });

  describe('authentication', () => {
    it('answers 401 in the {detail} shape without a key or with a bad one', async () => {
      const none = await request(h.url).get('/api/v1/tenants').expect(401);
      expect(none.body).toEqual({ detail: expect.stringMatching(/Missing API key/) });
      await request(h.url)
        .get('/api/v1/tenants')
        .set(bearer('ak-' + '0'.repeat(64)))
        .expect(401);
      await request(h.url).get('/api/v1/tenants').set({ Authorization: 'Basic abc' }).expect(401);
    });

    it('keeps the bootstrap admin idempotent across restarts', async () => {
      const { startRegistry } = await import('../src/server');
      const { createLogger } = await import('@arbiter/http');
      const again = await startRegistry({ ...h.registry.ctx.config, PORT: 0 }, createLogger('registry', 'silent'));
      try {
        await request(again.url).get('/api/v1/tenants').set(bearer(h.adminKey)).expect(200);
        const count = await again.ctx.prisma.apiKey.count({ where: { bootstrap: true } });
        expect(count).toBe(1);
      } finally {
        await again.close();
      }
    });
  });

  describe('internal introspection', () => {
    const introspect = (body: object, token = TEST_INTERNAL_TOKEN) =>
      request(h.url).post('/internal/v1/introspect').set('X-Internal-Token', token).send(body);

    it('resolves a key hash to its identity', async () => {
      const p = await createPrincipalWithKey(h, a.admin.key, { permissions: ['check'], roles: ['role-ops'] });
      const res = await introspect({ key_hash: createHash('sha256').update(p.key).digest('hex') }).expect(200);
      expect(res.body).toEqual({
        active: true,
        identity: {
          key_id: p.keyId,
          tenant_id: a.tenant.id,
          tenant_slug: 'acme',
          principal: { id: p.principalId, kind: 'agent', name: 'p', roles: ['role-ops'], active: true },
          permissions: ['check'],
          scope_ids: [],
          expires_at: null,
          rate_limit: null,
        },
      });
      await introspect({ key_hash: '0'.repeat(64) }).expect(200, { active: false });
      await introspect({ key_hash: 'nope' }).expect(400);
    });

    it('finds a tenant by slug for the JWKS endpoint', async () => {
      const res = await request(h.url).get('/internal/v1/tenants/by-slug/acme').set('X-Internal-Token', TEST_INTERNAL_TOKEN).expect(200);
      expect(res.body).toEqual({ id: a.tenant.id, slug: 'acme' });
      await request(h.url).get('/internal/v1/tenants/by-slug/nobody').set('X-Internal-Token', TEST_INTERNAL_TOKEN).expect(404);
      await request(h.url).get('/internal/v1/tenants/by-slug/acme').set('Authorization', `Bearer ${h.adminKey}`).expect(401);
    });

    it('carries the tenant rate-limit override', async () => {
      const t = await createTenantWithAdmin(h, 'bigcorp', { rate_limit: { tier: 'enterprise', requests_per_minute: 6000, burst: 500 } });
      const res = await introspect({ key_hash: createHash('sha256').update(t.admin.key).digest('hex') }).expect(200);
      expect(res.body.identity.rate_limit).toEqual({ requests_per_minute: 6000, burst: 500 });
    });

    it('refuses tenant API keys and wrong tokens', async () => {
      await introspect({ key_hash: '0'.repeat(64) }, 'wrong-token').expect(401);
      await request(h.url)
        .post('/internal/v1/introspect')
        .set(bearer(h.adminKey))
        .send({ key_hash: '0'.repeat(64) })
        .expect(401);
    });
  });

  it('serves Prometheus metrics with its domain series', async () => {
    await request(h.url).get('/api/v1/tenants').set(bearer(h.adminKey)).expect(200);
    const res = await request(h.url).get('/metrics').expect(200);
    expect(res.text).toMatch(/arbiter_http_requests_total\{[^}]*route="\/api\/v1\/tenants"[^}]*\} \d+/);
    for (const name of ['arbiter_webhook_deliveries_total', 'arbiter_outbox_relayed_total', 'arbiter_signing_key_rotations_total']) {
      expect(res.text).toContain(`# TYPE ${name} counter`);
    }
  });

  it('serves its OpenAPI document and /docs', async () => {
    const spec = await request(h.url).get('/openapi.json').expect(200);
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/tenants', '/api/v1/principals', '/api/v1/api-keys/{key_id}']),
    );
    expect(JSON.stringify(spec.body)).not.toContain('/internal/');
    await request(h.url).get('/docs/').expect(200);
  });
});
