import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';

describe('registry scopes and namespaces', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'scoped', {
      scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] }, team: { type: 'string' }, tier: { type: 'number' } } },
    });
    admin = api(h, t.admin.key);
  });
  afterAll(() => h.stop());

  describe('scopes', () => {
    it('creates a scope with its selector and server-assigned fields', async () => {
      const res = await admin
        .post('/api/v1/scopes', { name: 'payments-eu', description: 'EU payments', selector: { region: 'eu', team: 'payments' } })
        .expect(201);
      expectConforms(res, 'post', '/api/v1/scopes');
      expect(res.body).toMatchObject({
        name: 'payments-eu',
        description: 'EU payments',
        selector: { region: 'eu', team: 'payments' },
        status: 'active',
        version: 1,
        tenant_id: t.tenant.id,
        created_by: t.admin.principalId,
      });
      expect(res.body.id).toMatch(/^scp-[0-9a-f]{24}$/);
      expect(res.body.updated_at).toBe(res.body.created_at);
    });

    it('defaults the selector to {} (the whole tenant)', async () => {
      const res = await admin.post('/api/v1/scopes', { name: 'tenant-wide' }).expect(201);
      expect(res.body.selector).toEqual({});
    });

    it('checks the selector against the tenant scope_schema (400)', async () => {
      const bad = await admin.post('/api/v1/scopes', { name: 'x1', selector: { region: 'asia' } }).expect(400);
      expect(bad.body.detail).toMatch(/selector.region: "asia" is not one of/);
      await admin.post('/api/v1/scopes', { name: 'x2', selector: { planet: 'mars' } }).expect(400);
      await admin.post('/api/v1/scopes', { name: 'x3', selector: { tier: 'gold' } }).expect(400);
      await admin.post('/api/v1/scopes', { name: 'x4', selector: { region: ['eu'] } }).expect(400);
      await admin.post('/api/v1/scopes', { name: 'x5', selector: 'eu' }).expect(400);
    });

    it('answers 422 without a name, 400 for an unknown field, 409 for a taken name', async () => {
      const missing = await admin.post('/api/v1/scopes', { selector: {} }).expect(422);
      expect(missing.body.detail).toMatch(/name/);
      await admin.post('/api/v1/scopes', { name: 'y', colour: 'red' }).expect(400);
      await createScope(admin, 'dup');
      const dup = await admin.post('/api/v1/scopes', { name: 'dup' }).expect(409);
      expect(dup.body).toEqual({ detail: 'A scope named dup already exists' });
    });

    it('shows entry counts on the scope and updates it with PATCH (version moves)', async () => {
      const s = await createScope(admin, 'counted', { region: 'us' });
      await admin.post(`/api/v1/scopes/${s.id}/decisions`, { decision: 'd' }).expect(201);
      const inv = await admin.post(`/api/v1/scopes/${s.id}/invariants`, { constraint: 'c' }).expect(201);
      await admin.post(`/api/v1/scopes/${s.id}/invariants`, { constraint: 'c2' }).expect(201);
      await admin.delete(`/api/v1/scopes/${s.id}/invariants/${inv.body.id}`).expect(200);
      await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'ADVISORY' }).expect(201);
      const details = await admin.get(`/api/v1/scopes/${s.id}`).expect(200);
      expectConforms(details, 'get', '/api/v1/scopes/{scope_id}');
      expect(details.body.entry_counts).toEqual({ decisions: 1, invariants: 1, rules: 1, overrides: 0, references: 0, namespaces: 0 });

      const patched = await admin
        .patch(`/api/v1/scopes/${s.id}`, { name: 'counted-2', selector: { region: 'eu' }, description: null })
        .expect(200);
      expectConforms(patched, 'patch', '/api/v1/scopes/{scope_id}');
      expect(patched.body).toMatchObject({ name: 'counted-2', selector: { region: 'eu' }, description: null, version: 2 });
      expect(patched.body.updated_at >= patched.body.created_at).toBe(true);
      await admin.patch(`/api/v1/scopes/${s.id}`, { selector: { region: 'mars' } }).expect(400);
      await admin.patch(`/api/v1/scopes/${s.id}`, { name: 'dup' }).expect(409);
      await admin.patch('/api/v1/scopes/scp-000000000000000000000000', { name: 'z' }).expect(404);
    });

    it('lists scopes with pagination', async () => {
      const first = await admin.get('/api/v1/scopes?limit=2').expect(200);
      expectConforms(first, 'get', '/api/v1/scopes');
      expect(first.body.items).toHaveLength(2);
      const all: string[] = first.body.items.map((s: { id: string }) => s.id);
      let cursor = first.body.next_cursor;
      while (cursor) {
        const page = await admin.get(`/api/v1/scopes?limit=2&cursor=${cursor}`).expect(200);
        all.push(...page.body.items.map((s: { id: string }) => s.id));
        cursor = page.body.next_cursor;
      }
      expect(new Set(all).size).toBe(all.length);
      const everything = await admin.get('/api/v1/scopes?limit=1000').expect(200);
      expect(everything.body.items.map((s: { id: string }) => s.id)).toEqual(all);
      await admin.get('/api/v1/scopes?limit=0').expect(400);
      await admin.get('/api/v1/scopes?limit=1001').expect(400);
      await admin.get('/api/v1/scopes?limit=abc').expect(400);
      await admin.get('/api/v1/scopes?cursor=%%%').expect(400);
    });

    it('needs admin to create or update scopes and read to see them', async () => {
      const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write', 'manage_rules'] });
      const res = await api(h, writer.key).post('/api/v1/scopes', { name: 'nope' }).expect(403);
      expect(res.body).toEqual({ detail: 'Missing permission: admin' });
      const s = await createScope(admin, 'readable');
      await api(h, writer.key).patch(`/api/v1/scopes/${s.id}`, { name: 'x' }).expect(403);
      await api(h, writer.key).get(`/api/v1/scopes/${s.id}`).expect(200);
      const noRead = await createPrincipalWithKey(h, t.admin.key, { permissions: ['check'] });
      expect((await api(h, noRead.key).get('/api/v1/scopes').expect(403)).body).toEqual({ detail: 'Missing permission: read' });
    });

    it('echoes an unknown id of 256 characters whole in its 404, a longer one cut to 64 and its length', async () => {
      const edge = `scp-${'a'.repeat(252)}`;
      expect((await admin.get(`/api/v1/scopes/${edge}`).expect(404)).body).toEqual({ detail: `Scope ${edge} not found` });
      const long = `scp-${'b'.repeat(4996)}`;
      const res = await admin.get(`/api/v1/scopes/${long}`).expect(404);
      expect(res.body).toEqual({ detail: `Scope ${long.slice(0, 64)}… (5000 characters) not found` });
    });

    it('keeps restricted keys to their scopes (404 elsewhere) and refuses them scope creation (403)', async () => {
      const mine = await createScope(admin, 'mine');
      const other = await createScope(admin, 'other');
      const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['admin'], scope_ids: [mine.id] });
      const r = api(h, restricted.key);
      const list = await r.get('/api/v1/scopes').expect(200);
      expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([mine.id]);
      await r.get(`/api/v1/scopes/${mine.id}`).expect(200);
      const hidden = await r.get(`/api/v1/scopes/${other.id}`).expect(404);
      expect(hidden.body).toEqual({ detail: `Scope ${other.id} not found` });
      await r.patch(`/api/v1/scopes/${other.id}`, { name: 'taken-over' }).expect(404);
      const create = await r.post('/api/v1/scopes', { name: 'escape' }).expect(403);
      expect(create.body.detail).toMatch(/restricted to some scopes/);
    });

    it("refuses a restricted key a change of its own scope's selector (403), which would reach operations outside its scopes", async () => {
      const narrow = await createScope(admin, 'narrow', { region: 'eu', team: 'payments' });
      const r = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['admin'], scope_ids: [narrow.id] })).key);

      const widen = await r.patch(`/api/v1/scopes/${narrow.id}`, { selector: {} }).expect(403);
      const renamed = await r.patch(`/api/v1/scopes/${narrow.id}`, { name: 'narrow-renamed', description: 'ours' }).expect(200);
      const byAdmin = await admin.patch(`/api/v1/scopes/${narrow.id}`, { selector: { region: 'eu' } }).expect(200);

      expect(widen.body).toEqual({ detail: 'A key restricted to some scopes cannot change a scope selector' });
      expect(renamed.body).toMatchObject({ name: 'narrow-renamed', selector: { region: 'eu', team: 'payments' } });
      expect(byAdmin.body.selector).toEqual({ region: 'eu' });
    });

    it('answers 401 without a valid key and 415 for a body that is not JSON, in the {detail} shape', async () => {
      const none = await request(h.url).get('/api/v1/scopes').expect(401);
      expect(none.body).toEqual({ detail: expect.stringMatching(/Missing API key/) });
      await request(h.url).post('/api/v1/search').set('Authorization', 'Bearer ak-nope').send({ query: 'x' }).expect(401);
      const text = await request(h.url)
        .post('/api/v1/scopes')
        .set('Authorization', `Bearer ${t.admin.key}`)
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      expect(text.body).toEqual({ detail: expect.any(String) });
      await request(h.url)
        .post('/api/v1/scopes')
        .set('Authorization', `Bearer ${t.admin.key}`)
        .set('Content-Type', 'application/json')
        .send('{"name":')
        .expect(400);
    });

    it("never shows another tenant's scope (404)", async () => {
      const b = await createTenantWithAdmin(h, 'other-tenant');
      const theirs = await createScope(api(h, b.admin.key), 'theirs');
      await admin.get(`/api/v1/scopes/${theirs.id}`).expect(404);
      await admin.get(`/api/v1/scopes/${theirs.id}/rules`).expect(404);
      await admin.post(`/api/v1/scopes/${theirs.id}/decisions`, { decision: 'x' }).expect(404);
      const list = await admin.get('/api/v1/scopes?limit=1000').expect(200);
      expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(theirs.id);
    });
  });

  describe('namespaces', () => {
    let scopeId: string;
    beforeAll(async () => {
      scopeId = (await createScope(admin, 'ns-scope')).id;
    });

    it('creates a root and two levels below it', async () => {
      const root = await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'payments', description: 'all payments' }).expect(201);
      expectConforms(root, 'post', '/api/v1/scopes/{scope_id}/namespaces');
      expect(root.body).toMatchObject({
        path: 'payments',
        name: 'payments',
        depth: 0,
        parent_id: null,
        status: 'active',
        version: 1,
        scope_id: scopeId,
      });
      expect(root.body.id).toMatch(/^ns-/);
      const child = await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'payments/eu' }).expect(201);
      expect(child.body).toMatchObject({ name: 'eu', depth: 1, parent_id: root.body.id });
      const grandchild = await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'payments/eu/sepa' }).expect(201);
      expect(grandchild.body).toMatchObject({ depth: 2, parent_id: child.body.id });
    });

    it('rejects a third level below the root (400)', async () => {
      const res = await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'payments/eu/sepa/instant' }).expect(400);
      expect(res.body.detail).toMatch(/too deep/);
    });

    it('needs the parent (404), a valid path (400), a path (422) and refuses duplicates (409)', async () => {
      await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'nowhere/child' }).expect(404);
      await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'Bad Name' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'a//b' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, {}).expect(422);
      await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'payments' }).expect(409);
    });

    it('lists namespaces and files decisions under them', async () => {
      const list = await admin.get(`/api/v1/scopes/${scopeId}/namespaces`).expect(200);
      expectConforms(list, 'get', '/api/v1/scopes/{scope_id}/namespaces');
      expect(list.body.items.map((n: { path: string }) => n.path)).toEqual(['payments', 'payments/eu', 'payments/eu/sepa']);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'in sepa', namespace: 'payments/eu/sepa' }).expect(201);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'in payments', namespace: 'payments' }).expect(201);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'nowhere', namespace: 'unknown' }).expect(404);
      const eu = await admin.get(`/api/v1/scopes/${scopeId}/decisions?namespace=payments/eu`).expect(200);
      expect(eu.body.items.map((d: { decision: string }) => d.decision)).toEqual(['in sepa']);
      const all = await admin.get(`/api/v1/scopes/${scopeId}/decisions?namespace=payments`).expect(200);
      expect(all.body.items).toHaveLength(2);
    });

    it('needs write to create namespaces', async () => {
      const reader = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] });
      const res = await api(h, reader.key).post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'x' }).expect(403);
      expect(res.body).toEqual({ detail: 'Missing permission: write' });
    });
  });
});
