import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';

interface Ev {
  type: string;
  entity_id: string;
  data: Record<string, unknown>;
}

describe('registry approvals (docs/approvals.md "The registry flow")', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let requester: Api;
  let requesterId: string;
  let deciders: Api[];
  let deciderIds: string[];
  let financeDecider: { api: Api; principalId: string };
  let scopeId: string;
  let otherScopeId: string;
  let gatedInvariant: string;
  let plainInvariant: string;
  let gatedRule: string;
  let mandatoryRule: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'approvals');
    admin = api(h, t.admin.key);
    const req = await createPrincipalWithKey(h, t.admin.key, { kind: 'agent', permissions: ['read', 'write'] });
    requester = api(h, req.key);
    requesterId = req.principalId;
    const made = await Promise.all(
      [1, 2, 3].map(() => createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['read', 'approve'] })),
    );
    deciders = made.map((d) => api(h, d.key));
    deciderIds = made.map((d) => d.principalId);
    const fin = await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['read', 'approve'], roles: ['role-finance'] });
    financeDecider = { api: api(h, fin.key), principalId: fin.principalId };
    scopeId = (await createScope(admin, 'payments')).id;
    otherScopeId = (await createScope(admin, 'other')).id;
    const inv = (body: object) =>
      admin
        .post(`/api/v1/scopes/${scopeId}/invariants`, body)
        .expect(201)
        .then((r) => r.body.id as string);
    gatedInvariant = await inv({ constraint: 'No deploys on Friday', requires_approval: true });
    plainInvariant = await inv({ constraint: 'Write tests' });
    const rule = (body: object) =>
      admin
        .post(`/api/v1/scopes/${scopeId}/rules`, body)
        .expect(201)
        .then((r) => r.body.id as string);
    gatedRule = await rule({ directive: 'Transfers above 10000 need finance', severity: 'REQUIRES_APPROVAL', deciders: ['role-finance'] });
    mandatoryRule = await rule({ directive: 'No refunds above 500', severity: 'MANDATORY' });
  });
  afterAll(() => h.stop());

  const request = (body: object, a: Api = requester, scope = scopeId) => a.post(`/api/v1/scopes/${scope}/approvals`, body);
  const decide = (id: string, body: object, a: Api = deciders[0]) => a.post(`/api/v1/scopes/${scopeId}/approvals/${id}/decide`, body);
  const feed = async (type: string): Promise<Ev[]> =>
    (await admin.get(`/api/v1/scopes/${scopeId}/events?limit=1000&type=${type}`).expect(200)).body.items;

  it('requests an approval (201, pending) and writes approval.requested in the same transaction', async () => {
    const res = await request({ trigger_id: gatedInvariant, intended_action: 'deploy hotfix on Friday', justification: 'outage' }).expect(
      201,
    );

    expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/approvals');
    expect(res.body).toMatchObject({
      scope_id: scopeId,
      trigger_id: gatedInvariant,
      trigger_type: 'invariant',
      trigger_version_id: null,
      requires_approval: true,
      intended_action: 'deploy hotfix on Friday',
      justification: 'outage',
      requested_by: requesterId,
      requested_by_type: 'agent',
      candidate_deciders: [],
      status: 'pending',
      decision: null,
      decided_by: null,
      decided_at: null,
      override_id: null,
      version: 1,
      created_by: requesterId,
    });
    expect(res.body.id).toMatch(/^apr-[0-9a-f]{24}$/);
    const events = await feed('approval.requested');
    expect(events.find((e) => e.entity_id === res.body.id)).toMatchObject({ type: 'approval.requested', data: res.body });
    const [outbox] = await sql<{ n: string }>(
      h,
      `SELECT count(*) AS n FROM outbox o JOIN events e ON e.id = o.event_id WHERE e.entity_id = $1`,
      [res.body.id],
    );
    expect(Number(outbox.n)).toBe(1);
  });

  it('approving a trigger that requires approval creates an approval_grant override in the same transaction', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'deploy on Friday' }).expect(201)).body;
    const expires = new Date(Date.now() + 1_800_000).toISOString();

    const res = await decide(apr.id, {
      decision: 'approved',
      comment: 'ok for this one',
      decided_by: 'Jane (SRE lead)',
      expires_at: expires,
    }).expect(200);

    expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/approvals/{approval_id}/decide');
    expect(res.body).toMatchObject({
      status: 'approved',
      decision: 'approved',
      comment: 'ok for this one',
      decided_by: 'Jane (SRE lead)',
      decider_principal_id: deciderIds[0],
      version: 2,
    });
    expect(res.body.decided_at).toEqual(expect.any(String));
    expect(res.body.override_id).toMatch(/^ovr-/);
    const overrides = (await admin.get(`/api/v1/scopes/${scopeId}/overrides?status=active`).expect(200)).body.items;
    expect(overrides.find((o: { id: string }) => o.id === res.body.override_id)).toMatchObject({
      target_id: gatedInvariant,
      target_type: 'invariant',
      override_type: 'approval_grant',
      approval_id: apr.id,
      approved_by: deciderIds[0],
      applies_to_scope: {},
      expires_at: expires,
      status: 'active',
      created_by: deciderIds[0],
    });
    const resolved = (await admin.get(`/api/v1/scopes/${scopeId}/resolve`).expect(200)).body;
    expect(resolved.overrides.map((o: { id: string }) => o.id)).toContain(res.body.override_id);
    const check = (await admin.post('/api/v1/check', { scope_id: scopeId, intended_action: 'deploy on Friday' }).expect(200)).body;
    expect(check.overridden.find((c: { entry_id: string }) => c.entry_id === gatedInvariant)?.override_ids).toContain(res.body.override_id);
    const events = (await admin.get(`/api/v1/scopes/${scopeId}/events?limit=1000&type=override.created,approval.resolved`).expect(200)).body
      .items as Ev[];
    const mine = events.filter((e) => e.entity_id === apr.id || e.entity_id === res.body.override_id);
    expect(mine.map((e) => e.type)).toEqual(['override.created', 'approval.resolved']);
    expect(mine[1].data).toEqual(res.body);
    expect((await requester.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200)).body).toEqual(res.body);
  });

  it('gives the override a default lifetime of APPROVAL_GRANT_TTL_SECONDS (3600 s) after the decision when the decision names none', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'again' }).expect(201)).body;

    const res = await decide(apr.id, { decision: 'approved' }).expect(200);

    const override = (await admin.get(`/api/v1/scopes/${scopeId}/overrides?status=active&limit=1000`).expect(200)).body.items.find(
      (o: { id: string }) => o.id === res.body.override_id,
    );
    expect(Date.parse(override.expires_at) - Date.parse(res.body.decided_at)).toBe(3_600_000);
    expect(res.body.decided_by).toBe(deciderIds[0]);
    expect(override.approved_by).toBe(deciderIds[0]);
  });

  it("bounds the override to the approval's scope: applies_to_scope is the scope's selector", async () => {
    const eu = (await createScope(admin, 'payments-eu', { region: 'eu', team: 'payments' })).id;
    const inv = (
      await admin.post(`/api/v1/scopes/${eu}/invariants`, { constraint: 'No EU transfers at night', requires_approval: true }).expect(201)
    ).body.id;
    const apr = (await request({ trigger_id: inv, intended_action: 'night transfer' }, requester, eu).expect(201)).body;

    const res = await deciders[1].post(`/api/v1/scopes/${eu}/approvals/${apr.id}/decide`, { decision: 'approved' }).expect(200);

    const overrides = (await admin.get(`/api/v1/scopes/${eu}/overrides`).expect(200)).body.items;
    expect(overrides).toEqual([
      expect.objectContaining({
        id: res.body.override_id,
        scope_id: eu,
        scope_ids: [eu],
        applies_to_scope: { region: 'eu', team: 'payments' },
        approved_by: deciderIds[1],
      }),
    ]);
  });

  it('records decided_by as a note only: approved_by is the deciding principal even when decided_by names another', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'impersonate' }).expect(201)).body;

    const res = await decide(apr.id, { decision: 'approved', decided_by: deciderIds[2] }, deciders[1]).expect(200);

    expect(res.body).toMatchObject({ decided_by: deciderIds[2], decider_principal_id: deciderIds[1] });
    const [override] = await sql<{ approved_by: string; created_by: string }>(
      h,
      'SELECT approved_by, created_by FROM overrides WHERE id = $1',
      [res.body.override_id],
    );
    expect(override).toEqual({ approved_by: deciderIds[1], created_by: deciderIds[1] });
  });

  it('refuses an expires_at without Z or an offset with 400, deciding nothing; one with an offset decides', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'local time' }).expect(201)).body;
    const at = new Date(Date.now() + 1_800_000);

    const res = await decide(apr.id, { decision: 'approved', expires_at: at.toISOString().replace('Z', '') }).expect(400);

    expect(res.body.detail).toMatch(/^Invalid request: expires_at: .*Z or an offset/);
    expect((await requester.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200)).body).toMatchObject({ status: 'pending' });
    const withOffset = `${new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
    const decided = (await decide(apr.id, { decision: 'approved', expires_at: withOffset }).expect(200)).body;
    const [row] = await sql<{ expires_at: Date }>(h, 'SELECT expires_at FROM overrides WHERE id = $1', [decided.override_id]);
    expect(row.expires_at.toISOString()).toBe(`${at.toISOString().slice(0, 19)}.000Z`);
  });

  it('refuses an expires_at later than APPROVAL_GRANT_TTL_SECONDS after the decision with 422, deciding nothing', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'for a week' }).expect(201)).body;

    const res = await decide(apr.id, { decision: 'approved', expires_at: new Date(Date.now() + 3_700_000).toISOString() }).expect(422);

    expect(res.body.detail).toMatch(/^expires_at must be at most 3600 seconds after the decision/);
    const now = (await requester.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200)).body;
    expect(now).toMatchObject({ status: 'pending', override_id: null, decided_at: null });
    const [count] = await sql<{ n: string }>(h, 'SELECT count(*) AS n FROM overrides WHERE approval_id = $1', [apr.id]);
    expect(Number(count.n)).toBe(0);
  });

  it('rejects a second decision with 409 already_decided', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'twice' }).expect(201)).body;
    await decide(apr.id, { decision: 'rejected', comment: 'no' }).expect(200);

    const again = await decide(apr.id, { decision: 'approved' }, deciders[1]).expect(409);

    expect(again.body).toEqual({ detail: `Approval ${apr.id} is already decided (rejected)` });
    const now = (await requester.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200)).body;
    expect(now).toMatchObject({ status: 'rejected', decision: 'rejected', override_id: null });
  });

  it('lets exactly one of several concurrent deciders win; the others get 409', async () => {
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'race' }).expect(201)).body;

    const results = await Promise.all(
      [0, 1, 2, 0, 1, 2].map((i, n) => decide(apr.id, { decision: n % 2 ? 'rejected' : 'approved', comment: `decider ${n}` }, deciders[i])),
    );

    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 200)!.body;
    const [counts] = await sql<{ overrides: string; resolved: string }>(
      h,
      `SELECT (SELECT count(*) FROM overrides WHERE approval_id = $1) AS overrides,
              (SELECT count(*) FROM events WHERE entity_id = $1 AND type = 'approval.resolved') AS resolved`,
      [apr.id],
    );
    expect(Number(counts.overrides)).toBe(winner.status === 'approved' ? 1 : 0);
    expect(Number(counts.resolved)).toBe(1);
    expect((await requester.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200)).body).toEqual(winner);
  });

  it('approves a trigger that does not require approval without creating an override', async () => {
    for (const trigger of [mandatoryRule, plainInvariant]) {
      const apr = (await request({ trigger_id: trigger, intended_action: 'refund 900' }).expect(201)).body;
      expect(apr.requires_approval).toBe(false);

      const res = await decide(apr.id, { decision: 'approved' }).expect(200);

      expect(res.body).toMatchObject({ status: 'approved', override_id: null });
    }
  });

  it("routes a rule's approval to its deciders: others get 403 not_a_valid_decider, a holder of the role decides", async () => {
    const apr = (await request({ trigger_id: gatedRule, trigger_type: 'rule', intended_action: 'transfer 20000' }).expect(201)).body;
    const rule = (await admin.get(`/api/v1/scopes/${scopeId}/rules/${gatedRule}`).expect(200)).body;
    expect(apr).toMatchObject({
      trigger_type: 'rule',
      trigger_version_id: rule.current_version_id,
      requires_approval: true,
      candidate_deciders: ['role-finance'],
    });

    const refused = await decide(apr.id, { decision: 'approved' }, deciders[0]).expect(403);
    const res = await decide(apr.id, { decision: 'approved' }, financeDecider.api).expect(200);

    expect(refused.body.detail).toContain('role-finance');
    expect(res.body).toMatchObject({ status: 'approved', decider_principal_id: financeDecider.principalId });
    const [override] = await sql<{ target_type: string; override_type: string }>(
      h,
      'SELECT target_type, override_type FROM overrides WHERE id = $1',
      [res.body.override_id],
    );
    expect(override).toEqual({ target_type: 'rule', override_type: 'approval_grant' });
  });

  it('decides an approval whose rule changed since the request under its frozen terms, but makes no override of the rule as it is now', async () => {
    const path = (id: string) => `/api/v1/scopes/${scopeId}/rules/${id}`;
    const put = async (id: string, body: object) => admin.put(path(id), body).expect(200);
    const overridesOf = async (approvalId: string) =>
      (await sql<{ n: string }>(h, 'SELECT count(*)::text AS n FROM overrides WHERE approval_id = $1', [approvalId]))[0].n;
    // A rule tightened while the approval waits: other deciders and a quorum of two.
    const tightened = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, {
        directive: 'Wires need finance',
        severity: 'REQUIRES_APPROVAL',
        deciders: ['role-finance'],
      })
      .expect(201);
    const apr = (await request({ trigger_id: tightened.body.id, trigger_type: 'rule', intended_action: 'wire 250000' }).expect(201)).body;
    await put(tightened.body.id, {
      directive: 'Wires need two CFO approvals',
      severity: 'REQUIRES_APPROVAL',
      deciders: ['role-cfo'],
      approvals_required: 2,
    });
    const decided = await decide(apr.id, { decision: 'approved' }, financeDecider.api).expect(200);
    expect(decided.body).toMatchObject({ status: 'approved', override_id: null });
    expect(await overridesOf(apr.id)).toBe('0');
    // A rule made to require approval only after the request (a MANDATORY rule had no deciders then): no override either.
    const made = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'No crypto purchases', severity: 'MANDATORY' })
      .expect(201);
    const early = (await request({ trigger_id: made.body.id, trigger_type: 'rule', intended_action: 'buy BTC' }).expect(201)).body;
    expect(early).toMatchObject({ requires_approval: false, candidate_deciders: [] });
    await put(made.body.id, { directive: 'Crypto purchases need the CFO', severity: 'REQUIRES_APPROVAL', deciders: ['role-cfo'] });
    expect((await decide(early.id, { decision: 'approved' }, deciders[0]).expect(200)).body).toMatchObject({ override_id: null });
    expect(await overridesOf(early.id)).toBe('0');
    // A new request freezes the new terms: finance no longer decides it.
    const fresh = (await request({ trigger_id: made.body.id, trigger_type: 'rule', intended_action: 'buy BTC' }).expect(201)).body;
    expect(fresh).toMatchObject({ requires_approval: true, candidate_deciders: ['role-cfo'] });
    await decide(fresh.id, { decision: 'approved' }, financeDecider.api).expect(403);
  });

  it('needs write to request and approve to decide; the requester cannot decide its own approval', async () => {
    const missingWrite = await request({ trigger_id: gatedInvariant, intended_action: 'x' }, deciders[0]).expect(403);
    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'x' }).expect(201)).body;
    const missingApprove = await decide(apr.id, { decision: 'approved' }, requester).expect(403);
    const own = (await request({ trigger_id: gatedInvariant, intended_action: 'mine' }, admin).expect(201)).body;
    const self = await decide(own.id, { decision: 'approved' }, admin).expect(403);

    expect(missingWrite.body).toEqual({ detail: 'Missing permission: write' });
    expect(missingApprove.body).toEqual({ detail: 'Missing permission: approve' });
    expect(self.body.detail).toContain('cannot decide');
  });

  it('keeps the requester from deciding by its authenticated principal: a requested_by naming someone else, or another key, changes nothing', async () => {
    const both = await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['read', 'write', 'approve'] });
    const secondKey = (await admin.post('/api/v1/api-keys', { principal_id: both.principalId, permissions: ['approve'] }).expect(201)).body
      .key;
    const apr = (
      await request(
        { trigger_id: gatedInvariant, intended_action: 'sneaky', requested_by: deciderIds[0], requested_by_type: 'human' },
        api(h, both.key),
      ).expect(201)
    ).body;
    expect(apr).toMatchObject({ requested_by: deciderIds[0], created_by: both.principalId });

    const viaSameKey = await decide(apr.id, { decision: 'approved' }, api(h, both.key)).expect(403);
    const viaOtherKey = await decide(apr.id, { decision: 'approved', decided_by: deciderIds[0] }, api(h, secondKey)).expect(403);
    const named = await decide(apr.id, { decision: 'rejected' }, deciders[0]).expect(200);

    expect(viaSameKey.body).toEqual({ detail: 'The principal that requested an approval cannot decide it' });
    expect(viaOtherKey.body).toEqual(viaSameKey.body);
    expect(named.body).toMatchObject({ status: 'rejected', decider_principal_id: deciderIds[0] });
  });

  it('refuses bad requests and decisions with the documented statuses', async () => {
    const bad = async (body: object, status: number) => (await request(body).expect(status)).body.detail as string;
    expect(await bad({ trigger_id: 'dec-1', intended_action: 'x' }, 400)).toContain('invariant (inv-) or a rule (rul-)');
    expect(await bad({ trigger_id: gatedInvariant, trigger_type: 'rule', intended_action: 'x' }, 400)).toContain('does not match');
    expect(await bad({ trigger_id: gatedInvariant }, 422)).toContain('intended_action');
    expect(
      (await request({ trigger_id: gatedInvariant, intended_action: 'x' }, requester, otherScopeId).expect(404)).body.detail,
    ).toContain(gatedInvariant);
    const revoked = (await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'temp', requires_approval: true }).expect(201))
      .body.id;
    await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${revoked}`).expect(200);
    expect(await bad({ trigger_id: revoked, intended_action: 'x' }, 409)).toContain('revoked');

    const apr = (await request({ trigger_id: gatedInvariant, intended_action: 'x' }).expect(201)).body;
    await decide(apr.id, { decision: 'maybe' }).expect(400);
    await decide(apr.id, {}).expect(422);
    expect(
      (await decide(apr.id, { decision: 'rejected', expires_at: new Date(Date.now() + 60_000).toISOString() }).expect(400)).body.detail,
    ).toContain('expires_at');
    await decide(apr.id, { decision: 'approved', expires_at: new Date(Date.now() - 60_000).toISOString() }).expect(422);
    await decide('apr-000000000000000000000000', { decision: 'approved' }).expect(404);
  });

  it('lists the scope approvals oldest first with status and trigger filters', async () => {
    const res = await requester
      .get(`/api/v1/scopes/${scopeId}/approvals?status=pending&trigger_id=${gatedInvariant}&limit=1000`)
      .expect(200);

    expectConforms(res, 'get', '/api/v1/scopes/{scope_id}/approvals');
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const a of res.body.items) expect(a).toMatchObject({ status: 'pending', trigger_id: gatedInvariant });
    const all = (await requester.get(`/api/v1/scopes/${scopeId}/approvals?limit=2`).expect(200)).body;
    expect(all.items).toHaveLength(2);
    expect(all.next_cursor).toEqual(expect.any(String));
    expect((await requester.get(`/api/v1/scopes/${otherScopeId}/approvals`).expect(200)).body.items).toEqual([]);
  });
});
