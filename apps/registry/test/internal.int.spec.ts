import { createHash } from 'node:crypto';
import request from 'supertest';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';
import { api, createScope, jcs, type Api } from './fixtures';

describe('registry internal API for the verdict gateway', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let eu: string;
  let all: string;
  let ruleEu: { id: string; current_version_id: string };
  let ruleAll: { id: string };
  let decider: string;

  const internal = {
    get: (path: string, token = TEST_INTERNAL_TOKEN) => request(h.url).get(`/internal/v1${path}`).set('X-Internal-Token', token),
    post: (path: string, body: object, token = TEST_INTERNAL_TOKEN) =>
      request(h.url).post(`/internal/v1${path}`).set('X-Internal-Token', token).send(body),
  };
  const state = async () => (await internal.get(`/tenants/${t.tenant.id}/state`).expect(200)).body;
  const stateHash = async () => (await internal.get(`/tenants/${t.tenant.id}/state-hash`).expect(200)).body;
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'gateway', {
      scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] }, team: {} } },
      default_verdict: 'allowed',
    });
    admin = api(h, t.admin.key);
    eu = (await createScope(admin, 'eu', { region: 'eu' })).id;
    all = (await createScope(admin, 'all')).id;
    decider = (await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['approve'], roles: ['role-finance'] }))
      .principalId;
    ruleEu = (
      await admin
        .post(`/api/v1/scopes/${eu}/rules`, {
          directive: 'Large EU transfers need approval',
          severity: 'REQUIRES_APPROVAL',
          applies_to: { actions: ['payments.transfer'] },
          conditions: [{ field: 'transfer.amount', op: 'gte', value: 10000 }],
          requires: [{ field: 'customer.country', type: 'string', source_requirement: 'verified' }],
          deciders: [decider, 'role-finance'],
          priority: 5,
          verdict: 'needs_review',
        })
        .expect(201)
    ).body;
    ruleAll = (await admin.post(`/api/v1/scopes/${all}/rules`, { directive: 'Everything is observed', severity: 'ADVISORY' }).expect(201))
      .body;
  });
  afterAll(() => h.stop());

  it('refuses callers without the service token, tenant API keys included (401)', async () => {
    await internal.get(`/tenants/${t.tenant.id}/state`, 'wrong-token-wrong-token').expect(401);
    await request(h.url).get(`/internal/v1/tenants/${t.tenant.id}/state`).set('Authorization', `Bearer ${h.adminKey}`).expect(401);
    await request(h.url).get(`/internal/v1/tenants/${t.tenant.id}/state-hash`).expect(401);
    await request(h.url)
      .post(`/internal/v1/tenants/${t.tenant.id}/overrides`)
      .set('Authorization', `Bearer ${t.admin.key}`)
      .send({})
      .expect(401);
  });

  it("serves the tenant's whole evaluable state with a hash recomputable from it", async () => {
    const s = await state();
    expect(s).toMatchObject({
      tenant_id: t.tenant.id,
      tenant_slug: 'gateway',
      revision: expect.any(Number),
      settings: { default_verdict: 'allowed', scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] }, team: {} } } },
      scopes: [
        { id: [eu, all].sort()[0], name: expect.any(String), selector: expect.any(Object) },
        { id: [eu, all].sort()[1], name: expect.any(String), selector: expect.any(Object) },
      ],
      invariants: [],
      overrides: [],
      valid_until: null,
    });
    expect(s.scopes.find((x: { id: string }) => x.id === eu).selector).toEqual({ region: 'eu' });
    expect(s.rules.find((r: { rule_id: string }) => r.rule_id === ruleEu.id)).toEqual({
      rule_id: ruleEu.id,
      rule_version_id: ruleEu.current_version_id,
      scope_id: eu,
      version: 1,
      version_created_at: expect.any(String),
      directive: 'Large EU transfers need approval',
      severity: 'REQUIRES_APPROVAL',
      verdict: 'needs_review',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gte', value: 10000 }],
      condition_mode: 'all',
      requires: [{ field: 'customer.country', type: 'string', source_requirement: 'verified' }],
      deciders: [decider, 'role-finance'],
      priority: 5,
      mode: 'enforce',
      approvals_required: null,
      escalate_after: null,
      escalation_deciders: [],
      approval_expires_after: null,
    });
    expect(s.principals).toEqual(
      expect.arrayContaining([
        { id: decider, kind: 'human', active: true, roles: ['role-finance'] },
        { id: t.admin.principalId, kind: 'human', active: true, roles: [] },
      ]),
    );
    const { state_hash, revision: _r, generated_at: _g, valid_until: _v, tenant_slug: _s, ...content } = s;
    expect(Object.keys(content).sort()).toEqual(['invariants', 'overrides', 'principals', 'rules', 'scopes', 'settings', 'tenant_id']);
    expect(`sha256:${createHash('sha256').update(jcs(content), 'utf8').digest('hex')}`).toBe(state_hash);
    expect(await stateHash()).toEqual({ tenant_id: t.tenant.id, revision: s.revision, state_hash, valid_until: null });
  });

  it('keeps the hash while nothing the gateway reads changes, and moves it on what does', async () => {
    const h0 = await stateHash();
    expect(await stateHash()).toEqual(h0);
    await admin.post(`/api/v1/scopes/${eu}/decisions`, { decision: 'not evaluable' }).expect(201);
    const h1 = await stateHash();
    expect(h1.revision).toBeGreaterThan(h0.revision);
    expect(h1.state_hash).toBe(h0.state_hash);

    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'rule update',
        () =>
          admin
            .put(`/api/v1/scopes/${all}/rules/${ruleAll.id}`, { directive: 'Everything is observed, really', severity: 'ADVISORY' })
            .expect(200),
      ],
      ['invariant create', () => admin.post(`/api/v1/scopes/${eu}/invariants`, { constraint: 'c', requires_approval: true }).expect(201)],
      ['principal roles', () => admin.patch(`/api/v1/principals/${decider}`, { roles: ['role-finance', 'role-risk'] }).expect(200)],
      ['principal deactivated', () => admin.patch(`/api/v1/principals/${decider}`, { active: false }).expect(200)],
      ['tenant settings', () => admin.patch(`/api/v1/tenants/${t.tenant.id}`, { settings: { default_verdict: 'blocked' } }).expect(200)],
      ['selector', () => admin.patch(`/api/v1/scopes/${all}`, { selector: { team: 'ops' } }).expect(200)],
    ];
    let previous = h1;
    for (const [what, step] of steps) {
      await step();
      const now = await stateHash();
      if (now.state_hash === previous.state_hash) throw new Error(`state_hash did not move on ${what}`);
      expect(now.revision).toBeGreaterThan(previous.revision);
      previous = now;
    }
    const s = await state();
    expect(s.state_hash).toBe(previous.state_hash);
    expect(s.principals.find((p: { id: string }) => p.id === decider)).toEqual({
      id: decider,
      kind: 'human',
      active: false,
      roles: ['role-finance', 'role-risk'],
    });
    expect(s.settings).toEqual({ default_verdict: 'blocked' });
  });

  describe('rule versions', () => {
    it('fetches any version by id, current or superseded', async () => {
      const v1 = ruleEu.current_version_id;
      const put = await admin.put(`/api/v1/scopes/${eu}/rules/${ruleEu.id}`, { directive: 'v2', severity: 'MANDATORY' }).expect(200);
      const old = await internal.get(`/rule-versions/${v1}`).expect(200);
      expect(old.body).toMatchObject({
        id: v1,
        rule_id: ruleEu.id,
        tenant_id: t.tenant.id,
        scope_id: eu,
        version: 1,
        status: 'superseded',
        rule_status: 'active',
        directive: 'Large EU transfers need approval',
        conditions: [{ field: 'transfer.amount', op: 'gte', value: 10000 }],
      });
      const current = await internal.get(`/rule-versions/${put.body.current_version_id}?tenant_id=${t.tenant.id}`).expect(200);
      expect(current.body).toMatchObject({ version: 2, status: 'current', directive: 'v2' });
    });

    it("answers 404 for an unknown version or another tenant's, 400 for a malformed id", async () => {
      await internal.get('/rule-versions/rv-000000000000000000000000').expect(404);
      const other = await createTenantWithAdmin(h, 'gateway-other');
      await internal.get(`/rule-versions/${ruleEu.current_version_id}?tenant_id=${other.tenant.id}`).expect(404);
      await internal.get('/rule-versions/%20').expect(400);
    });
  });

  describe('approval grants', () => {
    const grant = (body: object, tenant = t.tenant.id) => internal.post(`/tenants/${tenant}/overrides`, body);

    it('creates one approval_grant override over rules of several scopes, visible in each', async () => {
      const before = await stateHash();
      const res = await grant({
        target_ids: [ruleEu.id, ruleAll.id],
        applies_to_scope: { region: 'eu' },
        expires_at: inAnHour(),
        approved_by: t.admin.principalId,
        approval_id: 'apr-123',
        consultation_id: 'cns-456',
        justification: 'Approved by finance',
      }).expect(201);
      expect(res.body).toMatchObject({
        override_type: 'approval_grant',
        target_type: 'rule',
        target_id: ruleEu.id,
        target_ids: [ruleEu.id, ruleAll.id],
        scope_id: eu,
        scope_ids: [eu, all],
        applies_to_scope: { region: 'eu' },
        status: 'active',
        approval_id: 'apr-123',
        consultation_id: 'cns-456',
        approved_by: t.admin.principalId,
        justification: 'Approved by finance',
      });
      expect(res.body.id).toMatch(/^ovr-/);
      for (const scope of [eu, all]) {
        expect((await admin.get(`/api/v1/scopes/${scope}/overrides`).expect(200)).body.items.map((o: { id: string }) => o.id)).toContain(
          res.body.id,
        );
        expect((await admin.get(`/api/v1/scopes/${scope}/resolve`).expect(200)).body.overrides.map((o: { id: string }) => o.id)).toContain(
          res.body.id,
        );
        expect(
          (await admin.get(`/api/v1/scopes/${scope}/events?type=override.created`).expect(200)).body.items.map(
            (e: { entity_id: string }) => e.entity_id,
          ),
        ).toContain(res.body.id);
      }
      const s = await state();
      expect(s.overrides).toContainEqual({
        id: res.body.id,
        override_type: 'approval_grant',
        target_type: 'rule',
        target_ids: [ruleEu.id, ruleAll.id],
        scope_id: eu,
        scope_ids: [eu, all],
        applies_to_scope: { region: 'eu' },
        conditions: null,
        expires_at: res.body.expires_at,
        approval_id: 'apr-123',
      });
      expect(s.state_hash).not.toBe(before.state_hash);
      expect(s.valid_until).toBe(res.body.expires_at);
    });

    it('drops a grant from the state once it expires, without any write', async () => {
      const expires = new Date(Date.now() + 1500);
      const res = await grant({ target_ids: [ruleAll.id], applies_to_scope: { region: 'eu' }, expires_at: expires.toISOString() }).expect(
        201,
      );
      const during = await state();
      expect(during.overrides.map((o: { id: string }) => o.id)).toContain(res.body.id);
      expect(Date.parse(during.valid_until)).toBeLessThanOrEqual(expires.getTime());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires.getTime() - Date.now()) + 100));
      const after = await stateHash();
      expect(after.revision).toBe(during.revision);
      expect(after.state_hash).not.toBe(during.state_hash);
      expect((await state()).overrides.map((o: { id: string }) => o.id)).not.toContain(res.body.id);
      const listed = await admin.get(`/api/v1/scopes/${all}/overrides?status=expired`).expect(200);
      expect(listed.body.items.map((o: { id: string }) => o.id)).toContain(res.body.id);
    });

    it('validates the grant: 422 missing, 400 malformed, 404 unknown rule or tenant', async () => {
      await admin
        .patch(`/api/v1/tenants/${t.tenant.id}`, { settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } } })
        .expect(200);
      expect((await grant({ applies_to_scope: {}, expires_at: inAnHour() }).expect(422)).body).toEqual({
        detail: 'target_ids is required',
      });
      await grant({ target_ids: [ruleEu.id], expires_at: inAnHour() }).expect(422);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {} }).expect(422);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: '2001-01-01T00:00:00Z' }).expect(422);
      await grant({ target_ids: [], applies_to_scope: {}, expires_at: inAnHour() }).expect(400);
      await grant({ target_ids: ['inv-000000000000000000000000'], applies_to_scope: {}, expires_at: inAnHour() }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: { region: 'mars' }, expires_at: inAnHour() }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: { region: ['eu'] }, expires_at: inAnHour() }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: 'soon' }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour().replace('Z', '') }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: '2026-02-30T10:00:00Z' }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour(), colour: 'red' }).expect(400);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour(), override_type: 'temporary' }).expect(400);
      await grant({ target_ids: ['rul-000000000000000000000000'], applies_to_scope: {}, expires_at: inAnHour() }).expect(404);
      expect((await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour() }).expect(422)).body.detail).toMatch(
        /at least one scope field/,
      );
      const other = await createTenantWithAdmin(h, 'gateway-third');
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour() }, other.tenant.id).expect(404);
      await grant({ target_ids: [ruleEu.id], applies_to_scope: {}, expires_at: inAnHour() }, 'tnt-000000000000000000000000').expect(404);
      await request(h.url)
        .post(`/internal/v1/tenants/${t.tenant.id}/overrides`)
        .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
        .set('Content-Type', 'application/json')
        .send('[1]')
        .expect(400);
    });
  });

  it("answers 404 for an unknown tenant's state", async () => {
    await internal.get('/tenants/tnt-000000000000000000000000/state').expect(404);
    await internal.get('/tenants/tnt-000000000000000000000000/state-hash').expect(404);
  });

  it('stays out of the public OpenAPI document', async () => {
    const spec = await request(h.url).get('/openapi.json').expect(200);
    expect(JSON.stringify(spec.body)).not.toContain('/internal/');
  });
});
