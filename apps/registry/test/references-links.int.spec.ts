import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';

describe('registry references and links', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeA: string;
  let scopeB: string;
  let decision: string;
  let invariant: string;
  let rule: string;
  let ruleB: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'refs');
    admin = api(h, t.admin.key);
    scopeA = (await createScope(admin, 'a')).id;
    scopeB = (await createScope(admin, 'b')).id;
    decision = (await admin.post(`/api/v1/scopes/${scopeA}/decisions`, { decision: 'Adopt trunk-based development' }).expect(201)).body.id;
    invariant = (await admin.post(`/api/v1/scopes/${scopeA}/invariants`, { constraint: 'Main is always releasable' }).expect(201)).body.id;
    rule = (await admin.post(`/api/v1/scopes/${scopeA}/rules`, { directive: 'Two reviews per PR', severity: 'MANDATORY' }).expect(201)).body
      .id;
    ruleB = (await admin.post(`/api/v1/scopes/${scopeB}/rules`, { directive: 'Tag releases', severity: 'ADVISORY' }).expect(201)).body.id;
  });
  afterAll(() => h.stop());

  describe('references', () => {
    const post = (body: object, scope = scopeA) => admin.post(`/api/v1/scopes/${scope}/references`, body);

    it('records how an entry was used, with the entry type derived from its id', async () => {
      const res = await post({
        entry_id: rule,
        context_type: 'pull_request',
        context_ref: 'github.com/acme/app/pull/42',
        status: 'followed',
      }).expect(201);
      expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/references');
      expect(res.body).toMatchObject({
        entry_id: rule,
        entry_type: 'rule',
        context_type: 'pull_request',
        context_ref: 'github.com/acme/app/pull/42',
        status: 'followed',
        reason: null,
        author: t.admin.principalId,
        author_type: 'human',
        scope_id: scopeA,
        version: 1,
      });
      expect(res.body.id).toMatch(/^ref-[0-9a-f]{24}$/);
      await post({ entry_id: decision, context_type: 'pull_request', context_ref: 'github.com/acme/app/pull/42', status: 'cited' }).expect(
        201,
      );
      await post({
        entry_id: invariant,
        context_type: 'ticket',
        context_ref: 'JIRA-7',
        status: 'verified',
        author: 'ci-bot',
        author_type: 'agent',
      }).expect(201);
    });

    it('rejects diverged without a reason (422) and accepts it with one', async () => {
      const res = await post({ entry_id: rule, context_type: 'pull_request', context_ref: 'pr/43', status: 'diverged' }).expect(422);
      expect(res.body).toEqual({ detail: 'reason is required when status is diverged' });
      await post({ entry_id: rule, context_type: 'pull_request', context_ref: 'pr/43', status: 'diverged', reason: '   ' }).expect(422);
      const ok = await post({
        entry_id: rule,
        context_type: 'pull_request',
        context_ref: 'pr/43',
        status: 'diverged',
        reason: 'Hotfix, single reviewer on call',
      }).expect(201);
      expect(ok.body).toMatchObject({ status: 'diverged', reason: 'Hotfix, single reviewer on call' });
    });

    it('answers 422 for a missing field, 400 for a bad status or context_type, 404 for an entry of another scope', async () => {
      await post({ context_type: 'pull_request', context_ref: 'x', status: 'cited' }).expect(422);
      await post({ entry_id: rule, context_type: 'pull_request', context_ref: 'x', status: 'ignored' }).expect(400);
      await post({ entry_id: rule, context_type: 'Pull Request', context_ref: 'x', status: 'cited' }).expect(400);
      await post({ entry_id: ruleB, context_type: 'pull_request', context_ref: 'x', status: 'cited' }).expect(404);
      await post({ entry_id: 'dec-000000000000000000000000', context_type: 'pull_request', context_ref: 'x', status: 'cited' }).expect(404);
    });

    it('finds references by entry_id and by context_ref, and lists a scope', async () => {
      const byEntry = await admin.get(`/api/v1/references?entry_id=${rule}`).expect(200);
      expectConforms(byEntry, 'get', '/api/v1/references');
      expect(byEntry.body.items.map((r: { status: string }) => r.status)).toEqual(['followed', 'diverged']);
      const byContext = await admin.get(`/api/v1/references?context_ref=${encodeURIComponent('github.com/acme/app/pull/42')}`).expect(200);
      expect(byContext.body.items.map((r: { entry_id: string }) => r.entry_id)).toEqual([rule, decision]);
      const scoped = await admin.get(`/api/v1/scopes/${scopeA}/references`).expect(200);
      expectConforms(scoped, 'get', '/api/v1/scopes/{scope_id}/references');
      expect(scoped.body.items).toHaveLength(4);
      expect((await admin.get(`/api/v1/scopes/${scopeA}/references?status=diverged`).expect(200)).body.items).toHaveLength(1);
      expect((await admin.get(`/api/v1/scopes/${scopeA}/references?entry_id=${invariant}`).expect(200)).body.items).toHaveLength(1);
      expect((await admin.get('/api/v1/references?context_ref=none').expect(200)).body).toEqual({ items: [], next_cursor: null });
    });

    it('needs entry_id or context_ref (422)', async () => {
      expect((await admin.get('/api/v1/references').expect(422)).body).toEqual({ detail: 'entry_id or context_ref is required' });
    });

    it('needs write to record and read to query', async () => {
      const reader = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] });
      expect(
        (
          await api(h, reader.key)
            .post(`/api/v1/scopes/${scopeA}/references`, { entry_id: rule, context_type: 'x', context_ref: 'y', status: 'cited' })
            .expect(403)
        ).body,
      ).toEqual({
        detail: 'Missing permission: write',
      });
      await api(h, reader.key).get(`/api/v1/references?entry_id=${rule}`).expect(200);
    });

    it('shows a restricted key only the references of its scopes', async () => {
      await post({ entry_id: ruleB, context_type: 'pull_request', context_ref: 'shared-pr', status: 'cited' }, scopeB).expect(201);
      await post({ entry_id: rule, context_type: 'pull_request', context_ref: 'shared-pr', status: 'cited' }).expect(201);
      const onlyB = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write'], scope_ids: [scopeB] });
      const res = await api(h, onlyB.key).get('/api/v1/references?context_ref=shared-pr').expect(200);
      expect(res.body.items.map((r: { entry_id: string }) => r.entry_id)).toEqual([ruleB]);
      await api(h, onlyB.key)
        .post(`/api/v1/scopes/${scopeA}/references`, { entry_id: rule, context_type: 'x', context_ref: 'y', status: 'cited' })
        .expect(404);
    });
  });

  describe('links', () => {
    it.each(['depends_on', 'supersedes', 'contradicts', 'in_tension_with', 'creates'])(
      'links two entries with relation %s',
      async (relation) => {
        const res = await admin
          .post('/api/v1/links', { from_id: decision, from_type: 'decision', to_id: ruleB, to_type: 'rule', relation })
          .expect(201);
        expectConforms(res, 'post', '/api/v1/links');
        expect(res.body).toMatchObject({
          from_id: decision,
          from_type: 'decision',
          from_scope_id: scopeA,
          to_id: ruleB,
          to_type: 'rule',
          to_scope_id: scopeB,
          relation,
          status: 'active',
          version: 1,
          tenant_id: t.tenant.id,
        });
        expect(res.body.id).toMatch(/^lnk-[0-9a-f]{24}$/);
      },
    );

    it('lists the links of an entity at either end', async () => {
      await admin
        .post('/api/v1/links', { from_id: invariant, from_type: 'invariant', to_id: decision, to_type: 'decision', relation: 'depends_on' })
        .expect(201);
      const res = await admin.get(`/api/v1/links?entity_id=${decision}`).expect(200);
      expectConforms(res, 'get', '/api/v1/links');
      expect(res.body.items).toHaveLength(6);
      const dependsOn = await admin.get(`/api/v1/links?entity_id=${decision}&relation=depends_on`).expect(200);
      expect(dependsOn.body.items.map((l: { from_id: string; to_id: string }) => [l.from_id, l.to_id])).toEqual([
        [decision, ruleB],
        [invariant, decision],
      ]);
      const page = await admin.get(`/api/v1/links?entity_id=${decision}&limit=4`).expect(200);
      const rest = await admin.get(`/api/v1/links?entity_id=${decision}&limit=4&cursor=${page.body.next_cursor}`).expect(200);
      expect(page.body.items.length + rest.body.items.length).toBe(6);
    });

    it('needs both ends in the tenant (404), types matching the ids (400), two different entries (400)', async () => {
      await admin
        .post('/api/v1/links', {
          from_id: decision,
          from_type: 'decision',
          to_id: 'rul-000000000000000000000000',
          to_type: 'rule',
          relation: 'depends_on',
        })
        .expect(404);
      const other = await createTenantWithAdmin(h, 'refs-other');
      const os = await createScope(api(h, other.admin.key), 'x');
      const theirs = await api(h, other.admin.key).post(`/api/v1/scopes/${os.id}/decisions`, { decision: 'theirs' }).expect(201);
      await admin
        .post('/api/v1/links', {
          from_id: decision,
          from_type: 'decision',
          to_id: theirs.body.id,
          to_type: 'decision',
          relation: 'depends_on',
        })
        .expect(404);
      const mismatch = await admin
        .post('/api/v1/links', { from_id: decision, from_type: 'rule', to_id: rule, to_type: 'rule', relation: 'depends_on' })
        .expect(400);
      expect(mismatch.body.detail).toMatch(/not a rule id/);
      await admin
        .post('/api/v1/links', { from_id: rule, from_type: 'rule', to_id: rule, to_type: 'rule', relation: 'depends_on' })
        .expect(400);
      await admin
        .post('/api/v1/links', { from_id: rule, from_type: 'rule', to_id: decision, to_type: 'decision', relation: 'blocks' })
        .expect(400);
      await admin.post('/api/v1/links', { from_id: rule, from_type: 'rule', to_id: decision, to_type: 'decision' }).expect(422);
    });

    it('refuses a duplicate link (409)', async () => {
      const body = { from_id: rule, from_type: 'rule', to_id: invariant, to_type: 'invariant', relation: 'creates' };
      await admin.post('/api/v1/links', body).expect(201);
      const dup = await admin.post('/api/v1/links', body).expect(409);
      expect(dup.body.detail).toMatch(/already/);
    });

    it('needs entity_id to list (422) and write to create', async () => {
      await admin.get('/api/v1/links').expect(422);
      const reader = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] });
      expect(
        (
          await api(h, reader.key)
            .post('/api/v1/links', { from_id: rule, from_type: 'rule', to_id: decision, to_type: 'decision', relation: 'supersedes' })
            .expect(403)
        ).body,
      ).toEqual({
        detail: 'Missing permission: write',
      });
    });

    it('keeps restricted keys to links between their scopes', async () => {
      const onlyA = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write'], scope_ids: [scopeA] });
      const a = api(h, onlyA.key);
      await a
        .post('/api/v1/links', { from_id: rule, from_type: 'rule', to_id: ruleB, to_type: 'rule', relation: 'supersedes' })
        .expect(404);
      const seen = await a.get(`/api/v1/links?entity_id=${decision}`).expect(200);
      expect(
        seen.body.items.every(
          (l: { to_scope_id: string; from_scope_id: string }) => l.to_scope_id === scopeA && l.from_scope_id === scopeA,
        ),
      ).toBe(true);
      expect(seen.body.items).toHaveLength(1);
    });
  });
});
