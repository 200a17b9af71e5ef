import { createHash } from 'node:crypto';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, expireOverride, jcs, type Api } from './fixtures';

describe('registry resolve and normative_hash', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'resolve');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'main', { region: 'eu' })).id;
  });
  afterAll(() => h.stop());

  const resolve = async () => {
    const res = await admin.get(`/api/v1/scopes/${scopeId}/resolve`).expect(200);
    expectConforms(res, 'get', '/api/v1/scopes/{scope_id}/resolve');
    return res.body;
  };
  const hash = async () => (await resolve()).normative_hash as string;

  /** Recomputes the hash from the response alone, without @arbiter/canonical (docs/registry.md). */
  const recompute = (body: Record<string, unknown>) => {
    const { normative_hash: _h, ...rest } = body;
    return `sha256:${createHash('sha256').update(jcs(rest), 'utf8').digest('hex')}`;
  };

  it('returns the active invariants, current rule versions and effective overrides, sorted by id', async () => {
    const inv = await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'c1' }).expect(201);
    const rule = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, {
        directive: 'r1',
        severity: 'MANDATORY',
        conditions: [{ field: 'a.b', op: 'gt', value: 1 }],
      })
      .expect(201);
    const body = await resolve();
    expect(body).toMatchObject({
      scope_id: scopeId,
      selector: { region: 'eu' },
      invariants: [inv.body],
      rules: [rule.body],
      overrides: [],
    });
    expect(body.normative_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(recompute(body)).toBe(body.normative_hash);
  });

  it('keeps the hash identical across calls while nothing changes, even after unrelated writes', async () => {
    const before = await hash();
    expect(await hash()).toBe(before);
    const d = await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'd' }).expect(201);
    await admin.post(`/api/v1/scopes/${scopeId}/namespaces`, { path: 'ns' }).expect(201);
    const rule = (await resolve()).rules[0].id;
    await admin
      .post(`/api/v1/scopes/${scopeId}/references`, { entry_id: rule, context_type: 'pull_request', context_ref: 'pr/1', status: 'cited' })
      .expect(201);
    await admin
      .post('/api/v1/links', { from_id: d.body.id, from_type: 'decision', to_id: rule, to_type: 'rule', relation: 'creates' })
      .expect(201);
    await admin.patch(`/api/v1/scopes/${scopeId}`, { name: 'renamed', description: 'only words' }).expect(200);
    expect(await hash()).toBe(before);
  });

  it('moves on every change that matters, and each new state hashes as recomputed', async () => {
    let previous = await hash();
    const moved = async (what: string): Promise<string> => {
      const body = await resolve();
      expect(recompute(body)).toBe(body.normative_hash);
      if (body.normative_hash === previous) throw new Error(`normative_hash did not move on ${what}`);
      previous = body.normative_hash;
      return previous;
    };

    const rule = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'Transfers need review', severity: 'REQUIRES_APPROVAL' })
      .expect(201);
    await moved('rule create');
    await admin
      .put(`/api/v1/scopes/${scopeId}/rules/${rule.body.id}`, { directive: 'Transfers need two reviews', severity: 'REQUIRES_APPROVAL' })
      .expect(200);
    await moved('rule update');
    await admin
      .put(`/api/v1/scopes/${scopeId}/rules/${rule.body.id}`, { directive: 'Transfers need two reviews', severity: 'REQUIRES_APPROVAL' })
      .expect(200);
    await moved('rule update with the same content (a new version is a new state)');
    const inv = await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'Keep logs' }).expect(201);
    const withoutOverrides = await moved('invariant create');
    const o = await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, {
        target_id: inv.body.id,
        override_type: 'temporary',
        justification: 'j',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .expect(201);
    await moved('override create');
    expect((await resolve()).overrides.map((x: { id: string }) => x.id)).toEqual([o.body.id]);
    await expireOverride(h, o.body.id);
    // The state is again what it was before the override: the hash is of the content, so it returns.
    expect(await moved('override expiry')).toBe(withoutOverrides);
    expect((await resolve()).overrides).toEqual([]);
    const p = await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, { target_id: rule.body.id, override_type: 'permanent', justification: 'j' })
      .expect(201);
    await moved('another override');
    await admin.delete(`/api/v1/scopes/${scopeId}/overrides/${p.body.id}`).expect(200);
    expect(await moved('override revoke')).toBe(withoutOverrides);
    await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${inv.body.id}`).expect(200);
    await moved('invariant revoke');
    await admin.patch(`/api/v1/scopes/${scopeId}/rules/${rule.body.id}/archive`).expect(200);
    await moved('rule archive');
    await admin.patch(`/api/v1/scopes/${scopeId}`, { selector: { region: 'eu', team: 'payments' } }).expect(200);
    await moved('selector change');
  });

  it('does not move for changes in another scope', async () => {
    const before = await hash();
    const other = await createScope(admin, 'other');
    await admin.post(`/api/v1/scopes/${other.id}/rules`, { directive: 'elsewhere', severity: 'MANDATORY' }).expect(201);
    expect(await hash()).toBe(before);
  });

  it('answers 404 for an unknown scope or one outside the key, 403 without read', async () => {
    await admin.get('/api/v1/scopes/scp-000000000000000000000000/resolve').expect(404);
    const other = await createScope(admin, 'outside');
    const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'], scope_ids: [other.id] });
    await api(h, restricted.key).get(`/api/v1/scopes/${scopeId}/resolve`).expect(404);
    const noRead = await createPrincipalWithKey(h, t.admin.key, { permissions: ['check'] });
    await api(h, noRead.key).get(`/api/v1/scopes/${scopeId}/resolve`).expect(403);
  });
});
