import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';
import { createLogger } from '@arbiter/http';
import { checkStoredOverrideConditions } from '../src/services/override-conditions.service';
import request from 'supertest';
import { api, createScope, expectConforms, expireOverride, sql, type Api } from './fixtures';

describe('registry overrides', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  let invariantId: string;
  let ruleId: string;
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'overrides', { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } });
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'main', { region: 'eu' })).id;
    invariantId = (await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'Freeze deploys in December' }).expect(201)).body
      .id;
    ruleId = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'No refunds above 500', severity: 'MANDATORY' }).expect(201))
      .body.id;
  });
  afterAll(() => h.stop());

  const post = (body: object, scope = scopeId) => admin.post(`/api/v1/scopes/${scope}/overrides`, body);

  it('creates a temporary override of an invariant with every field', async () => {
    const expires = inAnHour();
    const res = await post({
      target_id: invariantId,
      override_type: 'temporary',
      justification: 'Security hotfix',
      conditions: 'service == "auth"',
      approved_by: 'cto',
      applies_to_scope: { region: 'eu' },
      expires_at: expires,
    }).expect(201);
    expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/overrides');
    expect(res.body).toMatchObject({
      target_id: invariantId,
      target_ids: [invariantId],
      target_type: 'invariant',
      override_type: 'temporary',
      justification: 'Security hotfix',
      conditions: 'service == "auth"',
      approved_by: 'cto',
      applies_to_scope: { region: 'eu' },
      expires_at: expires,
      status: 'active',
      revoked_at: null,
      scope_id: scopeId,
      scope_ids: [scopeId],
      version: 1,
      approval_id: null,
      created_by: t.admin.principalId,
    });
    expect(res.body.id).toMatch(/^ovr-[0-9a-f]{24}$/);
  });

  it('creates permanent and conditional overrides of a rule', async () => {
    const permanent = await post({ target_id: ruleId, override_type: 'permanent', justification: 'Legacy contract' }).expect(201);
    expect(permanent.body).toMatchObject({ target_type: 'rule', expires_at: null, status: 'active', applies_to_scope: null });
    const conditional = await post({
      target_id: ruleId,
      override_type: 'conditional',
      justification: 'j',
      conditions: 'incident.open == true',
    }).expect(201);
    expect(conditional.body).toMatchObject({ conditions: 'incident.open == true', conditions_error: null, status: 'active' });
  });

  describe('conditions (CEL)', () => {
    const count = async () => (await admin.get(`/api/v1/scopes/${scopeId}/overrides?limit=1000`).expect(200)).body.items.length;

    it.each([
      ['free text', 'during incidents'],
      ['a syntax error', 'amount <'],
      ['an expression that is not boolean', 'amount + 1'],
      ['an expression that cannot type-check', '"x" + 1'],
      ['an empty string', '   '],
    ])('refuses %s with 422 naming conditions, and stores nothing', async (_what, conditions) => {
      const before = await count();
      const res = await post({ target_id: ruleId, override_type: 'conditional', justification: 'j', conditions }).expect(422);
      expect(res.body.detail).toMatch(/^conditions: /);
      // The other types are bound by their conditions too, so the same holds for them.
      await post({ target_id: ruleId, override_type: 'permanent', justification: 'j', conditions }).expect(422);
      expect(await count()).toBe(before);
    });

    it('refuses a conditional override without conditions with 422 naming conditions', async () => {
      expect((await post({ target_id: ruleId, override_type: 'conditional', justification: 'j' }).expect(422)).body.detail).toMatch(
        /^conditions: required/,
      );
    });

    it('marks stored rows whose conditions do not parse as invalid_conditions: listed, but in effect nowhere', async () => {
      const s = await createScope(admin, 'legacy');
      const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
      const good = (
        await post({ target_id: rule.body.id, override_type: 'conditional', justification: 'j', conditions: 'amount < 20' }, s.id).expect(
          201,
        )
      ).body;
      const bad = (
        await post({ target_id: rule.body.id, override_type: 'conditional', justification: 'j', conditions: 'amount < 10' }, s.id).expect(
          201,
        )
      ).body;
      // As a row written before conditions were CEL: free text, not yet checked.
      await sql(h, `UPDATE overrides SET conditions = 'only small amounts', conditions_checked = false WHERE id = $1`, [bad.id]);
      expect(await checkStoredOverrideConditions(h.registry.ctx.prisma, createLogger('test', 'silent'))).toBe(1);
      expect(await checkStoredOverrideConditions(h.registry.ctx.prisma, createLogger('test', 'silent'))).toBe(0);

      const listed = (await admin.get(`/api/v1/scopes/${s.id}/overrides`).expect(200)).body.items;
      expect(listed.map((o: { id: string; status: string }) => [o.id, o.status])).toEqual([
        [good.id, 'active'],
        [bad.id, 'invalid_conditions'],
      ]);
      expect(listed[1].conditions_error).toMatch(/not a CEL expression/);
      const only = async (status: string) =>
        (await admin.get(`/api/v1/scopes/${s.id}/overrides?status=${status}`).expect(200)).body.items.map((o: { id: string }) => o.id);
      expect(await only('invalid_conditions')).toEqual([bad.id]);
      expect(await only('active')).toEqual([good.id]);

      const state = await request(h.url)
        .get(`/internal/v1/tenants/${t.tenant.id}/state`)
        .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
        .expect(200);
      const ids = state.body.overrides.map((o: { id: string }) => o.id);
      expect(ids).toContain(good.id);
      expect(ids).not.toContain(bad.id);
      expect(state.body.overrides.find((o: { id: string }) => o.id === good.id)).toMatchObject({
        conditions: 'amount < 20',
        scope_id: s.id,
      });
    });
  });

  it('answers 422 for a missing field, a temporary override without expiry, a conditional one without conditions, a past expiry', async () => {
    expect((await post({ override_type: 'permanent', justification: 'j' }).expect(422)).body.detail).toMatch(/target_id/);
    expect((await post({ target_id: ruleId, override_type: 'temporary', justification: 'j' }).expect(422)).body.detail).toMatch(
      /expires_at is required/,
    );
    expect((await post({ target_id: ruleId, override_type: 'conditional', justification: 'j' }).expect(422)).body.detail).toMatch(
      /^conditions: required/,
    );
    expect(
      (await post({ target_id: ruleId, override_type: 'temporary', justification: 'j', expires_at: '2001-01-01T00:00:00Z' }).expect(422))
        .body.detail,
    ).toMatch(/future/);
  });

  it('answers 400 for a bad type, a non-entry target, a bad applies_to_scope or expires_at', async () => {
    await post({ target_id: ruleId, override_type: 'forever', justification: 'j' }).expect(400);
    await post({ target_id: ruleId, override_type: 'approval_grant', justification: 'j', expires_at: inAnHour() }).expect(400);
    const dec = await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'd' }).expect(201);
    expect((await post({ target_id: dec.body.id, override_type: 'permanent', justification: 'j' }).expect(400)).body.detail).toMatch(
      /invariant .* or a rule/,
    );
    await post({ target_id: ruleId, override_type: 'permanent', justification: 'j', applies_to_scope: { region: 'mars' } }).expect(400);
    await post({ target_id: ruleId, override_type: 'temporary', justification: 'j', expires_at: 'tomorrow' }).expect(400);
  });

  it("takes an expiry that names its instant, and refuses one read in the server's time zone (400, nothing stored)", async () => {
    const listed = async () => (await admin.get(`/api/v1/scopes/${scopeId}/overrides?limit=1000`).expect(200)).body.items;
    const before = (await listed()).length;
    const local = inAnHour().replace('Z', ''); // 2026-03-01T10:45:00.000: no Z, no offset
    const day = inAnHour().slice(0, 10); // a date alone: tsoa reads it as UTC midnight
    for (const expires_at of [local, day]) {
      const res = await post({ target_id: ruleId, override_type: 'temporary', justification: 'j', expires_at }).expect(400);
      expect([expires_at, res.body.detail]).toEqual([expires_at, expect.stringMatching(/^Invalid request: expires_at: .*Z or an offset/)]);
    }
    expect(await listed()).toHaveLength(before);
    const at = new Date(Date.now() + 3_600_000);
    const withOffset = `${new Date(at.getTime() + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    const made = await post({ target_id: ruleId, override_type: 'temporary', justification: 'j', expires_at: withOffset }).expect(201);
    expect(made.body.expires_at).toBe(`${at.toISOString().slice(0, 19)}.000Z`);
  });

  it('answers 404 for a target of another scope and 409 for a revoked or archived target', async () => {
    const other = await createScope(admin, 'other');
    await post({ target_id: ruleId, override_type: 'permanent', justification: 'j' }, other.id).expect(404);
    await post({ target_id: 'inv-000000000000000000000000', override_type: 'permanent', justification: 'j' }).expect(404);
    const inv = await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'gone' }).expect(201);
    await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${inv.body.id}`).expect(200);
    expect((await post({ target_id: inv.body.id, override_type: 'permanent', justification: 'j' }).expect(409)).body.detail).toMatch(
      /revoked/,
    );
    const rule = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'old', severity: 'ADVISORY' }).expect(201);
    await admin.patch(`/api/v1/scopes/${scopeId}/rules/${rule.body.id}/archive`).expect(200);
    await post({ target_id: rule.body.id, override_type: 'permanent', justification: 'j' }).expect(409);
  });

  it('lists every override with its status: an expired one is listed as expired', async () => {
    const s = await createScope(admin, 'statuses');
    const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
    const mk = () =>
      post({ target_id: rule.body.id, override_type: 'temporary', justification: 'j', expires_at: inAnHour() }, s.id).expect(201);
    const active = (await mk()).body;
    const expired = (await mk()).body;
    const revoked = (await mk()).body;
    await expireOverride(h, expired.id);
    const del = await admin.delete(`/api/v1/scopes/${s.id}/overrides/${revoked.id}`).expect(200);
    expectConforms(del, 'delete', '/api/v1/scopes/{scope_id}/overrides/{override_id}');
    expect(del.body).toMatchObject({ status: 'revoked' });
    expect(del.body.revoked_at).toEqual(expect.any(String));

    const all = await admin.get(`/api/v1/scopes/${s.id}/overrides`).expect(200);
    expectConforms(all, 'get', '/api/v1/scopes/{scope_id}/overrides');
    expect(all.body.items.map((o: { id: string; status: string }) => [o.id, o.status])).toEqual([
      [active.id, 'active'],
      [expired.id, 'expired'],
      [revoked.id, 'revoked'],
    ]);
    const only = async (status: string) =>
      (await admin.get(`/api/v1/scopes/${s.id}/overrides?status=${status}`).expect(200)).body.items.map((o: { id: string }) => o.id);
    expect(await only('active')).toEqual([active.id]);
    expect(await only('expired')).toEqual([expired.id]);
    expect(await only('revoked')).toEqual([revoked.id]);
    await admin.get(`/api/v1/scopes/${s.id}/overrides?status=old`).expect(400);
  });

  it('revokes idempotently and answers 404 for unknown overrides or another scope', async () => {
    const o = await post({ target_id: ruleId, override_type: 'permanent', justification: 'j' }).expect(201);
    const first = await admin.delete(`/api/v1/scopes/${scopeId}/overrides/${o.body.id}`).expect(200);
    expect((await admin.delete(`/api/v1/scopes/${scopeId}/overrides/${o.body.id}`).expect(200)).body).toEqual(first.body);
    const other = await createScope(admin, 'elsewhere');
    await admin.delete(`/api/v1/scopes/${other.id}/overrides/${o.body.id}`).expect(404);
    await admin.delete(`/api/v1/scopes/${scopeId}/overrides/ovr-000000000000000000000000`).expect(404);
  });

  it('needs manage_invariants to create and revoke overrides', async () => {
    const ruler = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write', 'manage_rules'] });
    const r = api(h, ruler.key);
    expect(
      (
        await r
          .post(`/api/v1/scopes/${scopeId}/overrides`, { target_id: ruleId, override_type: 'permanent', justification: 'j' })
          .expect(403)
      ).body,
    ).toEqual({
      detail: 'Missing permission: manage_invariants',
    });
    const o = await post({ target_id: ruleId, override_type: 'permanent', justification: 'j' }).expect(201);
    await r.delete(`/api/v1/scopes/${scopeId}/overrides/${o.body.id}`).expect(403);
    await r.get(`/api/v1/scopes/${scopeId}/overrides`).expect(200);
  });
});
