import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness } from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';

const QUORUM_RULE = {
  directive: 'Wire transfers need two finance approvals',
  severity: 'REQUIRES_APPROVAL',
  deciders: ['role-finance'],
  approvals_required: 2,
  escalate_after: 3600,
  escalation_deciders: ['role-director'],
  approval_expires_after: 7200,
};

/** Quorum, escalation and expiry of registry approvals and the rule fields behind them (docs/approvals.md "Quorum, escalation and expiry"). */
describe('registry approvals: quorum, escalation and expiry', () => {
  let h: RegistryHarness;
  let admin: Api;
  let requester: Api;
  let finance: { api: Api; id: string }[];
  let director: { api: Api; id: string };
  let scopeId: string;
  let quorumRule: { id: string; current_version_id: string };
  let invariant: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    const t = await createTenantWithAdmin(h, 'quorum');
    admin = api(h, t.admin.key);
    const principal = async (roles: string[], permissions = ['read', 'approve']) => {
      const p = await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions, roles });
      return { api: api(h, p.key), id: p.principalId };
    };
    // The requester holds approve and role-finance too: it still never counts.
    requester = (await principal(['role-finance'], ['read', 'write', 'approve'])).api;
    finance = await Promise.all([1, 2, 3].map(() => principal(['role-finance'])));
    director = await principal(['role-director']);
    scopeId = (await createScope(admin, 'payments')).id;
    quorumRule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, QUORUM_RULE).expect(201)).body;
    invariant = (
      await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'No Friday deploys', requires_approval: true }).expect(201)
    ).body.id;
  });
  afterAll(() => h.stop());

  const open = async (trigger = quorumRule.id) =>
    (await requester.post(`/api/v1/scopes/${scopeId}/approvals`, { trigger_id: trigger, intended_action: 'wire 50,000' }).expect(201)).body;
  const decide = (a: Api, id: string, body: object) => a.post(`/api/v1/scopes/${scopeId}/approvals/${id}/decide`, body);
  const read = async (id: string) => (await admin.get(`/api/v1/scopes/${scopeId}/approvals/${id}`).expect(200)).body;

  describe('rule fields', () => {
    const post = (body: object) =>
      admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'd', severity: 'REQUIRES_APPROVAL', ...body });

    it('stores them on the version and answers them on the rule', async () => {
      const rule = (await admin.get(`/api/v1/scopes/${scopeId}/rules/${quorumRule.id}`).expect(200)).body;
      expect(rule).toMatchObject({
        approvals_required: 2,
        escalate_after: 3600,
        escalation_deciders: ['role-director'],
        approval_expires_after: 7200,
      });
      const plain = (await post({ directive: 'plain' }).expect(201)).body;
      expect(plain).toMatchObject({
        approvals_required: null,
        escalate_after: null,
        escalation_deciders: [],
        approval_expires_after: null,
      });
    });

    it.each([
      ['approvals_required', { severity: 'MANDATORY', approvals_required: 2 }],
      ['approval_expires_after', { severity: 'ADVISORY', approval_expires_after: 600 }],
      ['escalate_after', { severity: 'ALLOW', escalate_after: 600, escalation_deciders: ['role-a'] }],
    ])('refuses %s on a rule that leads to no approval (400 naming it)', async (field, body) => {
      const res = await post(body).expect(400);
      expect(res.body.detail).toContain(`${field}: only a rule of severity REQUIRES_APPROVAL leads to an approval`);
    });

    it.each([
      ['escalation_deciders', { escalation_deciders: ['role-a'] }, 'escalation_deciders: only together with escalate_after'],
      ['escalate_after', { escalate_after: 600 }, 'escalate_after: needs escalation_deciders'],
      [
        'escalation_deciders',
        { escalate_after: 600, escalation_deciders: ['hum-000000000000000000000000'] },
        'is not a principal of this tenant',
      ],
    ])('refuses %s that does not hold (400)', async (_field, body, detail) => {
      expect((await post(body).expect(400)).body.detail).toContain(detail);
    });

    it.each([
      ['approvals_required', { approvals_required: 21 }],
      ['approvals_required', { approvals_required: 0 }],
      ['escalate_after', { escalate_after: 59, escalation_deciders: ['role-a'] }],
      ['approval_expires_after', { approval_expires_after: 31_536_001 }],
    ])('refuses %s out of bounds (400 naming it)', async (field, body) => {
      expect((await post(body).expect(400)).body.detail).toContain(field);
    });

    // Every integer of a rule fits its column: a value past 2^31-1 is a 400 naming the field on POST and PUT, never a 500.
    const HUGE = 2 ** 31;
    it.each([
      ['escalate_after', { escalate_after: HUGE, escalation_deciders: ['role-a'] }],
      ['escalate_after', { escalate_after: 31_536_001, escalation_deciders: ['role-a'] }],
      ['approvals_required', { approvals_required: HUGE }],
      ['approval_expires_after', { approval_expires_after: HUGE }],
      ['priority', { priority: HUGE }],
      ['priority', { priority: -HUGE }],
      ['escalate_after', { escalate_after: 1e300, escalation_deciders: ['role-a'] }],
    ])('refuses a huge %s on POST and PUT (400 naming it)', async (field, body) => {
      expect((await post(body).expect(400)).body.detail).toContain(field);
      const put = await admin.put(`/api/v1/scopes/${scopeId}/rules/${quorumRule.id}`, { ...QUORUM_RULE, ...body }).expect(400);
      expect(put.body.detail).toContain(field);
    });

    it("refuses an escalation at or after the rule's own expiry; accepts one just before it, and a year without an expiry", async () => {
      const late = await post({ escalate_after: 7200, escalation_deciders: ['role-a'], approval_expires_after: 7200 }).expect(400);
      expect(late.body.detail).toBe(
        'Invalid rule: escalate_after: must be less than approval_expires_after (7200): the approval would expire before it escalates',
      );
      await post({ escalate_after: 7199, escalation_deciders: ['role-a'], approval_expires_after: 7200 }).expect(201);
      const year = (await post({ escalate_after: 31_536_000, escalation_deciders: ['role-a'] }).expect(201)).body;
      expect(year.escalate_after).toBe(31_536_000);
    });
  });

  it('freezes the rule terms on the approval, and gives an invariant trigger the defaults', async () => {
    const before = Date.now();
    const apr = await open();
    const res = await admin.get(`/api/v1/scopes/${scopeId}/approvals/${apr.id}`).expect(200);
    expectConforms(res, 'get', '/api/v1/scopes/{scope_id}/approvals/{approval_id}');
    expect(apr).toMatchObject({ status: 'pending', approvals_required: 2, approvals: [], escalation_deciders: ['role-director'] });
    const requested = Date.parse(apr.created_at);
    expect(Date.parse(apr.expires_at) - requested).toBe(7200 * 1000);
    expect(Date.parse(apr.escalates_at) - requested).toBe(3600 * 1000);
    expect(requested).toBeGreaterThanOrEqual(before - 1000);

    const inv = await open(invariant);
    expect(inv).toMatchObject({ approvals_required: 1, approvals: [], escalates_at: null, escalation_deciders: [] });
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(86_400 * 1000);
  });

  it('reaches a quorum of two with two distinct deciders; the same decider twice and the requester do not count', async () => {
    const apr = await open();
    const self = await decide(requester, apr.id, { decision: 'approved' }).expect(403);
    expect(self.body.detail).toMatch(/requested an approval cannot decide/);
    const grantEarly = await decide(finance[0].api, apr.id, {
      decision: 'approved',
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    }).expect(422);
    expect(grantEarly.body.detail).toMatch(/completes the quorum/);
    // The refused decision changed nothing.
    expect((await read(apr.id)).approvals).toEqual([]);
    const first = await decide(finance[0].api, apr.id, { decision: 'approved', comment: 'invoice seen' }).expect(200);
    expect(first.body).toMatchObject({ status: 'pending', override_id: null, decision: null });
    expect(first.body.approvals).toEqual([{ decider: finance[0].id, decided_at: expect.any(String), notes: 'invoice seen' }]);
    const twice = await decide(finance[0].api, apr.id, { decision: 'approved' }).expect(409);
    expect(twice.body.detail).toMatch(/^already_approved_by_you: /);
    // The approval that completes the quorum may bound the grant.
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const second = await decide(finance[1].api, apr.id, { decision: 'approved', expires_at: expiresAt }).expect(200);
    expect(second.body).toMatchObject({ status: 'approved', decision: 'approved', decider_principal_id: finance[1].id });
    expect(second.body.approvals.map((a: { decider: string }) => a.decider)).toEqual([finance[0].id, finance[1].id]);
    expect(second.body.override_id).toMatch(/^ovr-/);
    const late = await decide(finance[2].api, apr.id, { decision: 'approved' }).expect(409);
    expect(late.body.detail).toMatch(/already decided/);
  });

  it('keeps the terms frozen at the request when the rule is edited afterwards', async () => {
    const edited = (
      await admin
        .post(`/api/v1/scopes/${scopeId}/rules`, { ...QUORUM_RULE, directive: 'Edited later: two approvals, then one' })
        .expect(201)
    ).body;
    const apr = await open(edited.id);
    await admin
      .put(`/api/v1/scopes/${scopeId}/rules/${edited.id}`, { directive: 'Edited later: one approval', severity: 'REQUIRES_APPROVAL' })
      .expect(200);
    const first = await decide(finance[0].api, apr.id, { decision: 'approved' }).expect(200);
    expect(first.body).toMatchObject({ status: 'pending', approvals_required: 2, expires_at: apr.expires_at });
  });

  it('rejects with one rejection, also after an approval', async () => {
    const apr = await open();
    await decide(finance[0].api, apr.id, { decision: 'approved' }).expect(200);
    const rejected = await decide(finance[1].api, apr.id, { decision: 'rejected', comment: 'no' }).expect(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', override_id: null, decider_principal_id: finance[1].id });
    expect(rejected.body.approvals).toHaveLength(1);
  });

  it('lets an escalation decider decide from escalates_at on, not before', async () => {
    const apr = await open();
    const early = await decide(director.api, apr.id, { decision: 'approved' }).expect(403);
    expect(early.body.detail).toMatch(/^not_a_valid_decider: .*role-director from /);
    // The test cannot wait an hour: the stored escalates_at is moved into the past.
    await sql(h, `UPDATE approvals SET escalates_at = now() - interval '1 second' WHERE id = $1`, [apr.id]);
    const counted = await decide(director.api, apr.id, { decision: 'approved' }).expect(200);
    expect(counted.body.approvals.map((a: { decider: string }) => a.decider)).toEqual([director.id]);
    expect((await decide(finance[0].api, apr.id, { decision: 'approved' }).expect(200)).body.status).toBe('approved');
  });

  it('answers an approval past expires_at as expired, filters on it, refuses a decision with 409 and stores the expiry', async () => {
    const apr = await open();
    const other = await open();
    await decide(finance[0].api, apr.id, { decision: 'approved' }).expect(200);
    await sql(h, `UPDATE approvals SET expires_at = now() - interval '1 second' WHERE id = $1`, [apr.id]);
    expect((await read(apr.id)).status).toBe('expired');
    const list = async (status: string) =>
      (await admin.get(`/api/v1/scopes/${scopeId}/approvals?status=${status}&limit=1000`).expect(200)).body.items.map(
        (a: { id: string }) => a.id,
      );
    expect(await list('expired')).toContain(apr.id);
    expect(await list('pending')).not.toContain(apr.id);
    expect(await list('pending')).toContain(other.id);
    const refused = await decide(finance[1].api, apr.id, { decision: 'approved' }).expect(409);
    expect(refused.body.detail).toMatch(/^approval_expired: /);
    const [row] = await sql<{ status: string; override_id: string | null }>(h, 'SELECT status, override_id FROM approvals WHERE id = $1', [
      apr.id,
    ]);
    expect(row).toEqual({ status: 'expired', override_id: null });
    const events = (await admin.get(`/api/v1/scopes/${scopeId}/events?limit=1000&type=approval.resolved`).expect(200)).body.items;
    expect(events.find((e: { entity_id: string }) => e.entity_id === apr.id)).toMatchObject({ data: { status: 'expired' } });
    // A rejection is refused the same way.
    expect((await decide(finance[1].api, apr.id, { decision: 'rejected' }).expect(409)).body.detail).toMatch(/^approval_expired: /);
  });

  it('lets four concurrent approvers reach a quorum of two exactly once', async () => {
    const apr = await open();
    const deciders = [...finance.map((f) => f.api), director.api];
    await sql(h, `UPDATE approvals SET escalates_at = now() - interval '1 second' WHERE id = $1`, [apr.id]);
    const answers = await Promise.all(deciders.map((a) => decide(a, apr.id, { decision: 'approved' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    expect(answers.filter((a) => a.body.status === 'approved')).toHaveLength(1);
    const stored = await read(apr.id);
    expect(stored.approvals).toHaveLength(2);
    const [overrides] = await sql<{ n: string }>(h, 'SELECT count(*) AS n FROM overrides WHERE approval_id = $1', [apr.id]);
    expect(Number(overrides.n)).toBe(1);
  });
});
