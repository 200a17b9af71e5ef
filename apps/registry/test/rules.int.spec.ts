import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';

describe('registry rules and versions', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  let decider: string;

  const full = () => ({
    directive: 'Transfers above 10k need a second pair of eyes',
    severity: 'REQUIRES_APPROVAL',
    verdict: 'needs_review',
    applies_to: { actions: ['payments.transfer*'], resources: ['account:*'] },
    conditions: [
      { field: 'transfer.amount', op: 'gt', value: 10000 },
      { field: 'transfer.currency', op: 'in', value: ['EUR', 'USD'] },
      { field: 'scope.region', op: 'eq', value: 'eu' },
      { field: 'customer.kyc', op: 'exists' },
    ],
    condition_mode: 'any',
    requires: [
      {
        field: 'customer.country',
        reason: 'sanctions',
        type: 'enum',
        allowed_values: ['DE', 'FR'],
        source_requirement: 'verified',
        acceptable_sources: ['kyc-service'],
        confidence_threshold: 0.9,
      },
      { field: 'transfer.amount', type: 'number', min: 0, max: 1000000 },
    ],
    deciders: [decider, 'role-finance'],
    priority: 10,
  });

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'rules');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'payments', { region: 'eu' })).id;
    decider = (await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['approve'] })).principalId;
  });
  afterAll(() => h.stop());

  it('creates a rule with every machine-readable field and its first version', async () => {
    const res = await admin.post(`/api/v1/scopes/${scopeId}/rules`, full()).expect(201);
    expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/rules');
    expect(res.body).toMatchObject({
      ...full(),
      status: 'active',
      version: 1,
      archived_at: null,
      scope_id: scopeId,
      author: t.admin.principalId,
      author_type: 'human',
    });
    expect(res.body.id).toMatch(/^rul-[0-9a-f]{24}$/);
    expect(res.body.current_version_id).toMatch(/^rv-[0-9a-f]{24}$/);
  });

  it('fills defaults for omitted optional fields', async () => {
    const res = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'Be nice', severity: 'ADVISORY', applies_to: {} })
      .expect(201);
    expect(res.body).toMatchObject({
      verdict: null,
      applies_to: null,
      conditions: [],
      condition_mode: 'all',
      requires: [],
      deciders: [],
      priority: null,
    });
  });

  it('updates with PUT into new immutable versions, listed oldest first', async () => {
    const created = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'v1', severity: 'ADVISORY' }).expect(201);
    const id = created.body.id;
    const v2 = await admin
      .put(`/api/v1/scopes/${scopeId}/rules/${id}`, { directive: 'v2', severity: 'MANDATORY', priority: 1 })
      .expect(200);
    expectConforms(v2, 'put', '/api/v1/scopes/{scope_id}/rules/{rule_id}');
    expect(v2.body).toMatchObject({
      id,
      directive: 'v2',
      severity: 'MANDATORY',
      version: 2,
      priority: 1,
      created_at: created.body.created_at,
    });
    expect(v2.body.current_version_id).not.toBe(created.body.current_version_id);
    const v3 = await admin.put(`/api/v1/scopes/${scopeId}/rules/${id}`, { directive: 'v3', severity: 'MANDATORY' }).expect(200);
    expect(v3.body).toMatchObject({ version: 3, priority: null });

    const got = await admin.get(`/api/v1/scopes/${scopeId}/rules/${id}`).expect(200);
    expectConforms(got, 'get', '/api/v1/scopes/{scope_id}/rules/{rule_id}');
    expect(got.body).toEqual(v3.body);

    const versions = await admin.get(`/api/v1/scopes/${scopeId}/rules/${id}/versions`).expect(200);
    expectConforms(versions, 'get', '/api/v1/scopes/{scope_id}/rules/{rule_id}/versions');
    expect(
      versions.body.items.map((v: { version: number; directive: string; status: string }) => [v.version, v.directive, v.status]),
    ).toEqual([
      [1, 'v1', 'superseded'],
      [2, 'v2', 'superseded'],
      [3, 'v3', 'current'],
    ]);
    expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([
      created.body.current_version_id,
      v2.body.current_version_id,
      v3.body.current_version_id,
    ]);
    for (const v of versions.body.items) {
      expect(v).toMatchObject({ rule_id: id, scope_id: scopeId, tenant_id: t.tenant.id });
      expect(v.updated_at).toBe(v.created_at);
    }

    const p1 = await admin.get(`/api/v1/scopes/${scopeId}/rules/${id}/versions?limit=2`).expect(200);
    const p2 = await admin.get(`/api/v1/scopes/${scopeId}/rules/${id}/versions?limit=2&cursor=${p1.body.next_cursor}`).expect(200);
    expect([...p1.body.items, ...p2.body.items].map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    expect(p2.body.next_cursor).toBeNull();
  });

  it('keeps versions immutable in the database itself', async () => {
    const created = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'frozen', severity: 'ADVISORY' }).expect(201);
    await expect(sql(h, `UPDATE rule_versions SET directive = 'changed' WHERE id = $1`, [created.body.current_version_id])).rejects.toThrow(
      /immutable/,
    );
    await expect(sql(h, `DELETE FROM rule_versions WHERE id = $1`, [created.body.current_version_id])).rejects.toThrow(/immutable/);
  });

  it('gives concurrent updates distinct consecutive version numbers', async () => {
    const created = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'race', severity: 'ADVISORY' }).expect(201);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        admin.put(`/api/v1/scopes/${scopeId}/rules/${created.body.id}`, { directive: `race ${i}`, severity: 'ADVISORY' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.map((r) => r.body.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const versions = await admin.get(`/api/v1/scopes/${scopeId}/rules/${created.body.id}/versions`).expect(200);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('archives a rule: out of the default list, still readable, no longer updatable (409)', async () => {
    const s = await createScope(admin, 'archiving');
    const keep = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'keep', severity: 'ALLOW' }).expect(201);
    const old = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'old', severity: 'ALLOW' }).expect(201);
    const archived = await admin.patch(`/api/v1/scopes/${s.id}/rules/${old.body.id}/archive`).expect(200);
    expectConforms(archived, 'patch', '/api/v1/scopes/{scope_id}/rules/{rule_id}/archive');
    expect(archived.body).toMatchObject({ status: 'archived', version: 1 });
    expect(archived.body.archived_at).toEqual(expect.any(String));
    expect((await admin.patch(`/api/v1/scopes/${s.id}/rules/${old.body.id}/archive`).expect(200)).body).toEqual(archived.body);

    const ids = async (q: string) =>
      (await admin.get(`/api/v1/scopes/${s.id}/rules${q}`).expect(200)).body.items.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([keep.body.id]);
    expect(await ids('?status=archived')).toEqual([old.body.id]);
    expect(await ids('?status=all')).toEqual([keep.body.id, old.body.id]);
    expectConforms(await admin.get(`/api/v1/scopes/${s.id}/rules?status=all`), 'get', '/api/v1/scopes/{scope_id}/rules');

    const put = await admin.put(`/api/v1/scopes/${s.id}/rules/${old.body.id}`, { directive: 'revive', severity: 'ALLOW' }).expect(409);
    expect(put.body.detail).toMatch(/archived/);
    await admin.get(`/api/v1/scopes/${s.id}/rules/${old.body.id}`).expect(200);
  });

  describe('validation of the machine-readable fields', () => {
    const post = (body: object) => admin.post(`/api/v1/scopes/${scopeId}/rules`, body);
    const base = { directive: 'd', severity: 'MANDATORY' };

    it('answers 422 when a required field is missing, nested ones included', async () => {
      expect((await post({ severity: 'MANDATORY' }).expect(422)).body.detail).toMatch(/directive/);
      expect((await post({ directive: 'd' }).expect(422)).body.detail).toMatch(/severity/);
      expect((await post({ ...base, requires: [{ field: 'a' }] }).expect(422)).body.detail).toMatch(/type/);
      expect((await post({ ...base, conditions: [{ op: 'eq', value: 1 }] }).expect(422)).body.detail).toMatch(/field/);
    });

    it.each([
      ['an unknown severity', { severity: 'CRITICAL' }],
      ['a verdict that is not a lowercase word', { verdict: 'Blocked!' }],
      ['an empty actions list', { applies_to: { actions: [] } }],
      ['an unknown applies_to field', { applies_to: { verbs: ['x'] } }],
      ['an action glob that is not a string', { applies_to: { actions: [1] } }],
      ['duplicate globs', { applies_to: { actions: ['a', 'a'] } }],
      ['an unknown op', { conditions: [{ field: 'a', op: 'like', value: 'x' }] }],
      ['a field that is not a dot path', { conditions: [{ field: 'a..b', op: 'eq', value: 1 }] }],
      ['eq without value', { conditions: [{ field: 'a', op: 'eq' }] }],
      ['in with a scalar', { conditions: [{ field: 'a', op: 'in', value: 'x' }] }],
      ['gt with a boolean', { conditions: [{ field: 'a', op: 'gt', value: true }] }],
      ['starts_with with a number', { conditions: [{ field: 'a', op: 'starts_with', value: 1 }] }],
      ['exists with a string', { conditions: [{ field: 'a', op: 'exists', value: 'yes' }] }],
      ['an unknown condition field', { conditions: [{ field: 'a', op: 'eq', value: 1, note: 'x' }] }],
      ['an unknown condition_mode', { condition_mode: 'some' }],
      ['an enum requirement without allowed_values', { requires: [{ field: 'a', type: 'enum' }] }],
      ['a requirement with min above max', { requires: [{ field: 'a', type: 'number', min: 5, max: 1 }] }],
      ['a confidence_threshold above 1', { requires: [{ field: 'a', type: 'number', confidence_threshold: 1.5 }] }],
      ['an unknown source_requirement', { requires: [{ field: 'a', type: 'string', source_requirement: 'signed' }] }],
      ['a decider that is neither principal nor role', { deciders: ['finance-team'] }],
      ['a decider principal of no one', { deciders: ['hum-000000000000000000000000'] }],
      ['a fractional priority', { priority: 1.5 }],
      ['a priority given as a string', { priority: '10' }],
      ['an unknown top-level field', { owner: 'x' }],
    ])('answers 400 for %s', async (_what, extra) => {
      const res = await post({ ...base, ...extra }).expect(400);
      expect(res.body).toEqual({ detail: expect.any(String) });
    });

    it('validates PUT bodies the same way', async () => {
      const r = await post(base).expect(201);
      await admin
        .put(`/api/v1/scopes/${scopeId}/rules/${r.body.id}`, { ...base, conditions: [{ field: 'a', op: 'in', value: 3 }] })
        .expect(400);
      await admin.put(`/api/v1/scopes/${scopeId}/rules/${r.body.id}`, { severity: 'ALLOW' }).expect(422);
    });
  });

  it('answers 404 for unknown rules or a rule of another scope', async () => {
    const other = await createScope(admin, 'other');
    const r = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'd', severity: 'ADVISORY' }).expect(201);
    await admin.get(`/api/v1/scopes/${other.id}/rules/${r.body.id}`).expect(404);
    await admin.put(`/api/v1/scopes/${other.id}/rules/${r.body.id}`, { directive: 'd', severity: 'ADVISORY' }).expect(404);
    await admin.patch(`/api/v1/scopes/${other.id}/rules/${r.body.id}/archive`).expect(404);
    await admin.get(`/api/v1/scopes/${other.id}/rules/${r.body.id}/versions`).expect(404);
    await admin.get(`/api/v1/scopes/${scopeId}/rules/rul-000000000000000000000000`).expect(404);
  });

  it('needs manage_rules to create, update and archive, naming the permission', async () => {
    const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write', 'manage_invariants'] });
    const w = api(h, writer.key);
    const r = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'd', severity: 'ADVISORY' }).expect(201);
    expect((await w.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'd', severity: 'ADVISORY' }).expect(403)).body).toEqual({
      detail: 'Missing permission: manage_rules',
    });
    await w.put(`/api/v1/scopes/${scopeId}/rules/${r.body.id}`, { directive: 'd', severity: 'ADVISORY' }).expect(403);
    await w.patch(`/api/v1/scopes/${scopeId}/rules/${r.body.id}/archive`).expect(403);
    await w.get(`/api/v1/scopes/${scopeId}/rules/${r.body.id}/versions`).expect(200);
    const ruler = await createPrincipalWithKey(h, t.admin.key, { permissions: ['manage_rules'] });
    await api(h, ruler.key).put(`/api/v1/scopes/${scopeId}/rules/${r.body.id}`, { directive: 'd2', severity: 'ADVISORY' }).expect(200);
  });
});
