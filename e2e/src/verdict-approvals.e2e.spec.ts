import request from 'supertest';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const APPROVALS = '/{tenant_id}/v1/approvals';

/** Verdict approvals (docs/approvals.md "Verdict approvals") through HTTP: the verdict gateway against a real registry, PostgreSQL and Redis. */
describe('/<tenant_id>/v1/approvals', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let other: VerdictTenant;
  let euScope: string;
  let rule: { id: string; current_version_id: string };
  let finance: { principalId: string; key: string };
  let finance2: { principalId: string; key: string };
  let legal: { principalId: string; key: string };

  const transfer = (amount: number) => ({
    action: 'payments.transfer',
    resource: 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters: { transfer: { amount } },
    on_behalf_of: t.humanId,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: { registryProxy: true } });
    t = await createVerdictTenant(stack, 'apr-a');
    other = await createVerdictTenant(stack, 'apr-b');
    const reg = registryApi(stack, t.adminKey);
    euScope = await reg.scope('eu', { region: 'eu' });
    rule = await reg.rule(euScope, {
      directive: 'Transfers above 10,000 need finance approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-finance'],
    });
    finance = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['approve', 'read'],
      roles: ['role-finance'],
    });
    finance2 = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['approve'],
      roles: ['role-finance'],
    });
    legal = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['approve'], roles: ['role-legal'] });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);
  const as = (key: string) => verdictApi(stack, key, t.id);
  const decide = (key: string, id: string, body: object) => as(key).post(`/${t.id}/v1/approvals/${id}/decision`, body);

  /** A fresh approval_required consultation and its approval. */
  async function requestApproval(amount = 20000): Promise<{ consultationId: string; approval: Record<string, unknown> & { id: string } }> {
    const checked = await agent().check(transfer(amount)).expect(200);
    expect(checked.body.verdict).toBe('approval_required');
    const created = await agent().post(`/${t.id}/v1/approvals`, {
      consultation_id: checked.body.consultation_id,
      requester_notes: 'quarter-end invoice',
    });
    expect(created.status).toBe(201);
    return { consultationId: checked.body.consultation_id, approval: created.body };
  }

  it('opens a pending approval copied from the consultation, with triggers and candidate deciders', async () => {
    const { consultationId, approval } = await requestApproval();
    expect(approval).toMatchObject({
      status: 'pending',
      requester: t.agent.id,
      requester_principal: t.humanId,
      intended_action: 'payments.transfer',
      intended_resource: 'acct:eu/4471',
      intended_parameters: { transfer: { amount: 20000 } },
      triggers: [{ rule_id: rule.id, rule_version_id: rule.current_version_id, reason: 'Transfers above 10,000 need finance approval' }],
      candidate_deciders: ['role-finance'],
      consultation_id: consultationId,
      requester_notes: 'quarter-end invoice',
      decider: null,
      decision: null,
    });
    expect(approval.id).toMatch(/^apr-/);
    const read = await agent().get(`/${t.id}/v1/approvals/${approval.id}`).expect(200);
    expectConforms(read, 'get', `${APPROVALS}/{approval_id}`);
    expect(read.body).toEqual(approval);
    const again = await agent().post(`/${t.id}/v1/approvals`, { consultation_id: consultationId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'approval_exists', details: { approval_id: approval.id } });
  });

  it("refuses consultations that were not approval_required, unknown ones and another tenant's", async () => {
    const allowed = await agent().check(transfer(50)).expect(200);
    expect(allowed.body.verdict).not.toBe('approval_required');
    const notRequired = await agent().post(`/${t.id}/v1/approvals`, { consultation_id: allowed.body.consultation_id });
    expect([notRequired.status, notRequired.body.code]).toEqual([400, 'consultation_not_approval_required']);
    const unknown = await agent().post(`/${t.id}/v1/approvals`, { consultation_id: 'cns-000000000000000000000000' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'consultation_not_found']);
    const foreign = await verdictApi(stack, other.agent.key, other.id).post(`/${other.id}/v1/approvals`, {
      consultation_id: allowed.body.consultation_id,
    });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'cross_tenant_forbidden']);
    const missingPermission = await as(legal.key).post(`/${t.id}/v1/approvals`, { consultation_id: allowed.body.consultation_id });
    expect([missingPermission.status, missingPermission.body.code]).toEqual([403, 'insufficient_permission']);
  });

  it('lets only a candidate decider decide: 403 not_a_valid_decider, 403 without approve', async () => {
    const { approval } = await requestApproval();
    const outsider = await decide(legal.key, approval.id, { decision: 'approve' });
    expect([outsider.status, outsider.body.code]).toEqual([403, 'not_a_valid_decider']);
    const noPermission = await decide(t.agent.key, approval.id, { decision: 'approve' });
    expect([noPermission.status, noPermission.body.code]).toEqual([403, 'insufficient_permission']);
    const grantWithReject = await decide(finance.key, approval.id, {
      decision: 'reject',
      grant: { applies_to_scope: { region: 'eu' }, expires_at: new Date(Date.now() + 60_000).toISOString() },
    });
    expect([grantWithReject.status, grantWithReject.body.code]).toEqual([400, 'invalid_grant']);
    const rejected = await decide(finance.key, approval.id, { decision: 'reject', decider_notes: 'no invoice attached' }).expect(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      decision: 'reject',
      decider: finance.principalId,
      decider_notes: 'no invoice attached',
    });
    expect(rejected.body.grants).toBeUndefined();
  });

  it('approves with a grant: check is allowed with the rule overridden until expires_at, then approval_required again', async () => {
    const { approval } = await requestApproval();
    const expiresAt = new Date(Date.now() + 6_000).toISOString();
    const approved = await decide(finance.key, approval.id, {
      decision: 'approve',
      decider_notes: 'invoice checked',
      grant: { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: expiresAt },
    });
    expect(approved.status).toBe(200);
    expectConforms(approved, 'post', `${APPROVALS}/{approval_id}/decision`);
    expect(approved.body).toMatchObject({
      status: 'approved',
      decision: 'approve',
      decider: finance.principalId,
      decider_notes: 'invoice checked',
    });
    expect(approved.body.decided_at).toEqual(expect.any(String));
    const [grant] = approved.body.grants;
    expect(grant).toEqual({
      override_id: expect.stringMatching(/^ovr-/),
      applies_to_scope: { region: 'eu', env: 'prod' },
      expires_at: expiresAt,
    });

    const override = await request(stack.registry.url)
      .get(`/api/v1/scopes/${euScope}/overrides`)
      .set('Authorization', `Bearer ${t.adminKey}`)
      .expect(200);
    expect(override.body.items.find((o: { id: string }) => o.id === grant.override_id)).toMatchObject({
      override_type: 'approval_grant',
      target_ids: [rule.id],
      approval_id: approval.id,
    });

    const allowed = await eventually(
      'the grant to allow the transfer',
      async () => {
        const res = await agent().check(transfer(20000)).expect(200);
        if (res.body.verdict !== 'allowed') throw new Error(`still ${res.body.verdict}`);
        return res;
      },
      { timeoutMs: 5_000 },
    );
    const consultation = await agent().consultation(allowed.body.consultation_id).expect(200);
    expect(consultation.body.precedence_trace).toContainEqual(
      expect.objectContaining({ rule_id: rule.id, reason: 'overridden', overridden_by: grant.override_id }),
    );

    const second = await decide(finance2.key, approval.id, { decision: 'reject' });
    expect([second.status, second.body.code]).toEqual([409, 'already_decided']);

    // Bounded wait past expires_at: the expired grant has no effect any more.
    await eventually(
      'the rejection to take the grant back',
      async () => {
        const res = await agent().check(transfer(20000)).expect(200);
        if (res.body.verdict !== 'approval_required') throw new Error(`still ${res.body.verdict}`);
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
  });

  it('lets exactly one of two concurrent deciders win', async () => {
    const { approval } = await requestApproval();
    const answers = await Promise.all([
      decide(finance.key, approval.id, { decision: 'approve' }),
      decide(finance2.key, approval.id, { decision: 'reject' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('already_decided');
    const stored = await agent().get(`/${t.id}/v1/approvals/${approval.id}`).expect(200);
    expect(stored.body).toEqual(winner.body);
  });

  it('lists approvals with the filters of docs/verdicts.md "Approvals"', async () => {
    const { approval: pending } = await requestApproval(30000);
    const list = (query: Record<string, string | number>) =>
      verdictApi(stack, finance.key, t.id).get(`/${t.id}/v1/approvals`).query(query).expect(200);
    const all = await list({});
    expectConforms(all, 'get', APPROVALS);
    expect(all.body.items.length).toBeGreaterThanOrEqual(4);
    expect(all.body.items[0].id).toBe(pending.id);
    const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((a) => a.id);
    expect(ids(await list({ status: 'pending' }))).toContain(pending.id);
    expect(ids(await list({ status: 'approved' }))).not.toContain(pending.id);
    expect(ids(await list({ assignee: 'role-finance' }))).toContain(pending.id);
    expect((await list({ assignee: 'role-legal' })).body.items).toEqual([]);
    expect(ids(await list({ requester: t.agent.id }))).toContain(pending.id);
    expect(ids(await list({ requester: t.humanId }))).toContain(pending.id);
    expect((await list({ requester: legal.principalId })).body.items).toEqual([]);
    expect((await list({ until: '2000-01-01' })).body.items).toEqual([]);
    expect(ids(await list({ since: new Date(Date.now() - 3_600_000).toISOString() }))).toContain(pending.id);
    const dominating = pending.dominating_rule_id as string | null;
    if (dominating) expect(ids(await list({ dominating_rule_id: dominating }))).toContain(pending.id);
    const page1 = await list({ limit: 1 });
    expect(page1.body.items).toHaveLength(1);
    const page2 = await list({ limit: 1, cursor: page1.body.next_cursor });
    expect(page2.body.items[0].id).not.toBe(page1.body.items[0].id);
    const bad = await verdictApi(stack, finance.key, t.id).get(`/${t.id}/v1/approvals`).query({ limit: 1001 });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_query']);
    const foreign = await verdictApi(stack, other.agent.key, other.id).get(`/${other.id}/v1/approvals/${pending.id}`);
    expect([foreign.status, foreign.body.code]).toEqual([403, 'cross_tenant_forbidden']);
  });

  it('lets a grant the registry made lift nothing until its approval is approved here: not while pending, not after a rejection or expiry', async () => {
    // Amounts no other test approved: an unused one-shot approval of the same operation would allow it once.
    const PROBE = 31000;
    // The registry makes the grant's override, and its answer is lost: the decision is not recorded (503).
    const lost = async (approvalId: string, expiresInMs: number) => {
      stack.proxy!.loseAnswer = (method, path) => method === 'POST' && path.endsWith('/overrides');
      try {
        const grant = { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: new Date(Date.now() + expiresInMs).toISOString() };
        const refused = await decide(finance.key, approvalId, { decision: 'approve', grant });
        expect([refused.status, refused.body.code]).toEqual([503, 'registry_unavailable']);
        return grant;
      } finally {
        stack.proxy!.loseAnswer = null;
      }
    };
    const overridesOf = async (approvalId: string) =>
      (
        await request(stack.registry.url)
          .get(`/api/v1/scopes/${euScope}/overrides`)
          .set('Authorization', `Bearer ${t.adminKey}`)
          .expect(200)
      ).body.items.filter((o: { approval_id: string | null }) => o.approval_id === approvalId);
    // Checks until one is judged on the registry's state as it is now (the orphan in it), then answers its verdict.
    const judgedOnCurrentState = async () => {
      const { body: now } = await request(stack.registry.url)
        .get(`/internal/v1/tenants/${t.id}/state-hash`)
        .set('X-Internal-Token', stack.env('verdict').INTERNAL_TOKEN!)
        .expect(200);
      return eventually(
        'a check on the current state',
        async () => {
          const res = await agent().check(transfer(PROBE)).expect(200);
          const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
          return record.state_hash === now.state_hash ? (res.body.verdict as string) : undefined;
        },
        { timeoutMs: 10_000 },
      );
    };

    const rejected = (await requestApproval(31001)).approval;
    await lost(rejected.id, 3_600_000);
    expect(await overridesOf(rejected.id)).toEqual([expect.objectContaining({ status: 'active' })]);
    expect(await judgedOnCurrentState()).toBe('approval_required');
    await decide(finance.key, rejected.id, { decision: 'reject' }).expect(200);
    expect(await judgedOnCurrentState()).toBe('approval_required');

    // Sent again, the decision finds the override made for it, and the grant lifts the rule once it is recorded.
    const expired = async () =>
      eventually(
        'the grant to expire',
        async () => (await agent().check(transfer(PROBE)).expect(200)).body.verdict === 'approval_required',
        {
          timeoutMs: 20_000,
        },
      );
    const retried = (await requestApproval(31002)).approval;
    const grant = await lost(retried.id, 8_000);
    expect(await judgedOnCurrentState()).toBe('approval_required');
    const [made] = await overridesOf(retried.id);
    const approved = await decide(finance.key, retried.id, { decision: 'approve', grant }).expect(200);
    expect(approved.body.grants).toEqual([expect.objectContaining({ override_id: made.id })]);
    expect(await judgedOnCurrentState()).toBe('allowed');
    await expired();

    // Sent again with other bounds (ending sooner), the decision does not take the earlier attempt's hour-long
    // override for its own: it makes one of its bounds, and the earlier one lifts nothing after it ends.
    const narrowed = (await requestApproval(31003)).approval;
    await lost(narrowed.id, 3_600_000);
    const [wider] = await overridesOf(narrowed.id);
    const shorter = { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: new Date(Date.now() + 8_000).toISOString() };
    const own = await decide(finance.key, narrowed.id, { decision: 'approve', grant: shorter }).expect(200);
    expect(own.body.grants).toEqual([expect.objectContaining({ override_id: expect.not.stringMatching(`^${wider.id}$`) })]);
    expect(await judgedOnCurrentState()).toBe('allowed');
    await expired();
  });

  it('keeps the approval pending with 503 while the registry is down, and relays its events once it is back', async () => {
    const { approval } = await requestApproval(40000);
    const grant = { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    await as(finance.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200); // the key is now in the auth cache
    stack.proxy!.down = true;
    try {
      const refused = await decide(finance.key, approval.id, { decision: 'approve', grant });
      expect([refused.status, refused.body.code]).toEqual([503, 'registry_unavailable']);
      expect((await as(finance.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200)).body.status).toBe('pending');
    } finally {
      stack.proxy!.down = false;
    }
    const approved = await decide(finance.key, approval.id, { decision: 'approve', grant }).expect(200);
    expect(approved.body.grants).toHaveLength(1);

    // The registry's feed of the rule's scope gets both events of this approval from the verdict outbox.
    await eventually(
      'both approval events in the feed',
      async () => {
        const feed = await request(stack.registry.url)
          .get(`/api/v1/scopes/${euScope}/events`)
          .query({ limit: 1000 })
          .set('Authorization', `Bearer ${t.adminKey}`)
          .expect(200);
        const mine = feed.body.items.filter((e: { entity_id: string }) => e.entity_id === approval.id);
        expect(mine.map((e: { type: string }) => e.type)).toEqual(['approval.requested', 'approval.resolved']);
        expect(mine[0]).toMatchObject({ source: 'verdict', entity_type: 'approval', data: { candidate_deciders: ['role-finance'] } });
        expect(mine[1].data).toMatchObject({ status: 'approved', grants: approved.body.grants });
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  });
});
