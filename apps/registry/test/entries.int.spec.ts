import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';

describe('registry decisions and invariants', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'entries');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'main')).id;
  });
  afterAll(() => h.stop());

  describe('decisions', () => {
    it('creates a decision with every field, author defaulting to the caller', async () => {
      const res = await admin
        .post(`/api/v1/scopes/${scopeId}/decisions`, {
          decision: 'Use Postgres',
          context: 'We need SQL',
          reasoning: 'Team knows it',
          tags: ['db', 'db', 'infra'],
        })
        .expect(201);
      expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/decisions');
      expect(res.body).toMatchObject({
        decision: 'Use Postgres',
        context: 'We need SQL',
        reasoning: 'Team knows it',
        tags: ['db', 'infra'],
        namespace: null,
        author: t.admin.principalId,
        author_type: 'human',
        status: 'active',
        version: 1,
        scope_id: scopeId,
        tenant_id: t.tenant.id,
        created_by: t.admin.principalId,
      });
      expect(res.body.id).toMatch(/^dec-[0-9a-f]{24}$/);
      const got = await admin.get(`/api/v1/scopes/${scopeId}/decisions/${res.body.id}`).expect(200);
      expectConforms(got, 'get', '/api/v1/scopes/{scope_id}/decisions/{decision_id}');
      expect(got.body).toEqual(res.body);
    });

    it('keeps an explicit author and author_type', async () => {
      const res = await admin
        .post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x', author: 'release-bot', author_type: 'agent' })
        .expect(201);
      expect(res.body).toMatchObject({ author: 'release-bot', author_type: 'agent', created_by: t.admin.principalId });
    });

    it('answers 422 without decision and 400 for bad values or unknown fields', async () => {
      expect((await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { context: 'c' }).expect(422)).body.detail).toMatch(/decision/);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: '' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x', author_type: 'robot' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x', tags: 'db' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x', status: 'active' }).expect(400);
      await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x', id: 'dec-mine' }).expect(400);
    });

    it('refuses a NUL character with 400 instead of failing in the database', async () => {
      const res = await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'a\u0000b' }).expect(400);
      expect(res.body.detail).toMatch(/NUL/);
    });

    it('lists decisions oldest first, filters by tag, paginates, and 404s unknown ids', async () => {
      const s = await createScope(admin, 'listing');
      for (const [i, tags] of [
        [1, ['a']],
        [2, ['b']],
        [3, ['a', 'b']],
      ] as const) {
        await admin.post(`/api/v1/scopes/${s.id}/decisions`, { decision: `d${i}`, tags }).expect(201);
      }
      const all = await admin.get(`/api/v1/scopes/${s.id}/decisions`).expect(200);
      expectConforms(all, 'get', '/api/v1/scopes/{scope_id}/decisions');
      expect(all.body.items.map((d: { decision: string }) => d.decision)).toEqual(['d1', 'd2', 'd3']);
      const tagged = await admin.get(`/api/v1/scopes/${s.id}/decisions?tag=a`).expect(200);
      expect(tagged.body.items.map((d: { decision: string }) => d.decision)).toEqual(['d1', 'd3']);
      const p1 = await admin.get(`/api/v1/scopes/${s.id}/decisions?limit=2`).expect(200);
      const p2 = await admin.get(`/api/v1/scopes/${s.id}/decisions?limit=2&cursor=${p1.body.next_cursor}`).expect(200);
      expect([...p1.body.items, ...p2.body.items].map((d: { decision: string }) => d.decision)).toEqual(['d1', 'd2', 'd3']);
      expect(p2.body.next_cursor).toBeNull();
      await admin.get(`/api/v1/scopes/${s.id}/decisions/dec-000000000000000000000000`).expect(404);
      const first = all.body.items[0].id;
      await admin.get(`/api/v1/scopes/${scopeId}/decisions/${first}`).expect(404);
    });

    it('needs write to create and read to list', async () => {
      const reader = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'manage_rules', 'manage_invariants'] });
      expect((await api(h, reader.key).post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x' }).expect(403)).body).toEqual({
        detail: 'Missing permission: write',
      });
      const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['write'] });
      await api(h, writer.key).post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'x' }).expect(201);
      expect((await api(h, writer.key).get(`/api/v1/scopes/${scopeId}/decisions`).expect(403)).body).toEqual({
        detail: 'Missing permission: read',
      });
    });
  });

  describe('invariants', () => {
    it('creates, reads and revokes (soft delete) an invariant', async () => {
      const created = await admin
        .post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'No deploys on Friday', rationale: 'Weekend', requires_approval: true })
        .expect(201);
      expectConforms(created, 'post', '/api/v1/scopes/{scope_id}/invariants');
      expect(created.body).toMatchObject({
        constraint: 'No deploys on Friday',
        rationale: 'Weekend',
        requires_approval: true,
        status: 'active',
        revoked_at: null,
        version: 1,
      });
      expect(created.body.id).toMatch(/^inv-[0-9a-f]{24}$/);
      const id = created.body.id;

      const revoked = await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${id}`).expect(200);
      expectConforms(revoked, 'delete', '/api/v1/scopes/{scope_id}/invariants/{invariant_id}');
      expect(revoked.body).toMatchObject({ id, status: 'revoked', constraint: 'No deploys on Friday' });
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      expect(revoked.body.updated_at).toBe(revoked.body.revoked_at);

      const again = await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${id}`).expect(200);
      expect(again.body).toEqual(revoked.body);
      const got = await admin.get(`/api/v1/scopes/${scopeId}/invariants/${id}`).expect(200);
      expectConforms(got, 'get', '/api/v1/scopes/{scope_id}/invariants/{invariant_id}');
      expect(got.body.status).toBe('revoked');
    });

    it('lists active invariants by default and revoked ones on request', async () => {
      const s = await createScope(admin, 'inv-list');
      const keep = await admin.post(`/api/v1/scopes/${s.id}/invariants`, { constraint: 'keep' }).expect(201);
      const drop = await admin.post(`/api/v1/scopes/${s.id}/invariants`, { constraint: 'drop' }).expect(201);
      await admin.delete(`/api/v1/scopes/${s.id}/invariants/${drop.body.id}`).expect(200);
      const ids = async (q: string) =>
        (await admin.get(`/api/v1/scopes/${s.id}/invariants${q}`).expect(200)).body.items.map((i: { id: string }) => i.id);
      expect(await ids('')).toEqual([keep.body.id]);
      expect(await ids('?status=revoked')).toEqual([drop.body.id]);
      expect(await ids('?status=all')).toEqual([keep.body.id, drop.body.id]);
      expectConforms(await admin.get(`/api/v1/scopes/${s.id}/invariants?status=all`), 'get', '/api/v1/scopes/{scope_id}/invariants');
      await admin.get(`/api/v1/scopes/${s.id}/invariants?status=gone`).expect(400);
    });

    it('answers 422 without constraint, 400 for bad types, 404 for unknown ids', async () => {
      await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { rationale: 'r' }).expect(422);
      await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'c', requires_approval: 'yes' }).expect(400);
      await admin.get(`/api/v1/scopes/${scopeId}/invariants/inv-000000000000000000000000`).expect(404);
      await admin.delete(`/api/v1/scopes/${scopeId}/invariants/inv-000000000000000000000000`).expect(404);
    });

    it('needs manage_invariants to create and revoke', async () => {
      const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write', 'manage_rules'] });
      const w = api(h, writer.key);
      expect((await w.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'c' }).expect(403)).body).toEqual({
        detail: 'Missing permission: manage_invariants',
      });
      const inv = await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'c' }).expect(201);
      await w.delete(`/api/v1/scopes/${scopeId}/invariants/${inv.body.id}`).expect(403);
      const manager = await createPrincipalWithKey(h, t.admin.key, { permissions: ['manage_invariants'] });
      await api(h, manager.key).delete(`/api/v1/scopes/${scopeId}/invariants/${inv.body.id}`).expect(200);
    });
  });
});
