import request from 'supertest';
import { ApprovalWaitError, createVerdictClient, requestApprovalAndWait } from '@arbiter/client';
import { eventually } from '@arbiter/testing';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { backdateApproval, createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

const APPROVAL = '/{tenant_id}/v1/approvals/{approval_id}';

/**
 * Quorum, escalation and expiry of verdict approvals (docs/approvals.md "Quorum, escalation and expiry")
 * through HTTP: the verdict gateway on a real registry, PostgreSQL and Redis.
 */
describe('verdict approvals: quorum, escalation and expiry', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scope: string;
  let quorumRule: { id: string; current_version_id: string };
  /** The requesting agent: it holds approve and role-finance too, and still never counts. */
  let bot: { principalId: string; key: string };
  /** The human the agent acts for (on_behalf_of): a finance approver, who never counts either. */
  let boss: { principalId: string; key: string };
  let finance: { principalId: string; key: string }[];
  let director: { principalId: string; key: string };
  let ops: { principalId: string; key: string };
  let refundRule: { id: string };
  let memoRule: { id: string };

  const transfer = (amount: number, action = 'payments.transfer') => ({
    action,
    resource: 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters: { transfer: { amount } },
    on_behalf_of: boss.principalId,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'quorum');
    const reg = registryApi(stack, t.adminKey);
    scope = await reg.scope('eu', { region: 'eu' });
    quorumRule = await reg.rule(scope, {
      directive: 'Transfers above 10,000 need two finance approvals',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-finance'],
      approvals_required: 2,
      escalate_after: 3600,
      escalation_deciders: ['role-director'],
      approval_expires_after: 7200,
    });
    // A second rule on the same transfers above 50,000: the strictest terms of the two win.
    await reg.rule(scope, {
      directive: 'Transfers above 50,000 need three approvals within ten minutes',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 50000 }],
      deciders: ['role-finance'],
      approvals_required: 3,
      approval_expires_after: 600,
    });
    // Refunds: one approval, no expiry of their own (APPROVAL_TTL_SECONDS).
    refundRule = await reg.rule(scope, {
      directive: 'Refunds need finance approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.refund'] },
      deciders: ['role-finance'],
    });
    // Refunds with a memo also need ops: a second rule whose deciders are others.
    memoRule = await reg.rule(scope, {
      directive: 'Refunds with a memo need a look from ops',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.refund'] },
      conditions: [{ field: 'memo', op: 'exists', value: true }],
      deciders: ['role-ops'],
    });
    const principal = (kind: 'agent' | 'human', permissions: string[], roles: string[]) =>
      createPrincipalWithKey(stack.registry, t.adminKey, { kind, permissions, roles });
    bot = await principal('agent', ['check', 'read', 'approve'], ['role-finance']);
    boss = await principal('human', ['approve', 'read'], ['role-finance']);
    finance = await Promise.all([1, 2, 3, 4].map(() => principal('human', ['approve', 'read'], ['role-finance'])));
    director = await principal('human', ['approve', 'read'], ['role-director']);
    ops = await principal('human', ['approve', 'read'], ['role-ops']);
  });
  afterAll(() => stack?.stop());

  const as = (key: string) => verdictApi(stack, key, t.id);
  const decide = (key: string, id: string, body: object) => as(key).post(`/${t.id}/v1/approvals/${id}/decision`, body);
  const read = async (id: string) => (await as(finance[0].key).get(`/${t.id}/v1/approvals/${id}`).expect(200)).body;
  const deciders = (a: { approvals: { decider: string }[] }) => a.approvals.map((x) => x.decider);

  async function open(amount = 20000, via = stack.verdict.url, action = 'payments.transfer') {
    const api = (path: string) => request(via).post(path).set('X-API-Key', bot.key);
    const checked = await api(`/${t.id}/v1/check`).send(transfer(amount, action)).expect(200);
    expect(checked.body.verdict).toBe('approval_required');
    const created = await api(`/${t.id}/v1/approvals`).send({ consultation_id: checked.body.consultation_id }).expect(201);
    return created.body;
  }

  it("freezes the triggering rule's terms on the approval, and the rule version answers them", async () => {
    const approval = await open();
    const res = await as(finance[0].key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200);
    expectConforms(res, 'get', APPROVAL);
    expect(res.body).toMatchObject({ status: 'pending', approvals_required: 2, approvals: [], escalation_deciders: ['role-director'] });
    const requested = Date.parse(approval.requested_at);
    expect(Date.parse(approval.expires_at) - requested).toBe(7200 * 1000);
    expect(Date.parse(approval.escalates_at) - requested).toBe(3600 * 1000);
    const version = await as(t.agent.key).ruleVersion(quorumRule.current_version_id).expect(200);
    expect(version.body).toMatchObject({
      approvals_required: 2,
      escalate_after: 3600,
      escalation_deciders: ['role-director'],
      approval_expires_after: 7200,
    });
  });

  it('takes the strictest terms when several rules trigger', async () => {
    const approval = await open(60000);
    expect(approval.triggers).toHaveLength(2);
    expect(approval).toMatchObject({ approvals_required: 3, escalation_deciders: ['role-director'] });
    expect(Date.parse(approval.expires_at) - Date.parse(approval.requested_at)).toBe(600 * 1000);
  });

  it('reaches a quorum of two with two distinct deciders; the requester, on_behalf_of and the same decider twice do not count', async () => {
    const approval = await open();
    for (const asking of [bot, boss]) {
      const refused = await decide(asking.key, approval.id, { decision: 'approve' });
      expect([refused.status, refused.body.code]).toEqual([403, 'not_a_valid_decider']);
    }
    const grantEarly = await decide(finance[0].key, approval.id, { decision: 'approve', grant: {} });
    expect([grantEarly.status, grantEarly.body.code]).toEqual([422, 'invalid_grant']);
    const first = await decide(finance[0].key, approval.id, { decision: 'approve', decider_notes: 'invoice seen' }).expect(200);
    expect(first.body).toMatchObject({ status: 'pending', decider: null, decision: null });
    expect(first.body.approvals).toEqual([
      { decider: finance[0].principalId, decided_at: expect.any(String), notes: 'invoice seen', rule_ids: [quorumRule.id] },
    ]);
    const twice = await decide(finance[0].key, approval.id, { decision: 'approve' });
    expect([twice.status, twice.body.code]).toEqual([409, 'already_approved_by_you']);
    // Still one approval: the agent's operation is not allowed yet.
    expect((await as(bot.key).check(transfer(20000)).expect(200)).body.verdict).toBe('approval_required');
    const second = await decide(finance[1].key, approval.id, { decision: 'approve' }).expect(200);
    expect(second.body).toMatchObject({ status: 'approved', decision: 'approve', decider: finance[1].principalId });
    expect(deciders(second.body)).toEqual([finance[0].principalId, finance[1].principalId]);
    expect(second.body.authorizes_until).toEqual(expect.any(String));
    expect((await as(bot.key).check(transfer(20000)).expect(200)).body.verdict).toBe('allowed');
    const late = await decide(finance[2].key, approval.id, { decision: 'approve' });
    expect([late.status, late.body.code]).toEqual([409, 'already_decided']);
  });

  it("needs each triggering rule's own deciders: a second rule's decider never approves for the first", async () => {
    // The agent adds a memo, so that a rule of other deciders (ops) triggers beside finance's.
    const refund = (memo?: string) => ({
      action: 'payments.refund',
      resource: 'acct:eu/4471',
      scope: { region: 'eu', env: 'prod' },
      parameters: { amount: 90000, ...(memo ? { memo } : {}) },
    });
    const checked = (await as(bot.key).check(refund('x')).expect(200)).body;
    expect(checked.verdict).toBe('approval_required');
    const approval = (await as(bot.key).post(`/${t.id}/v1/approvals`).send({ consultation_id: checked.consultation_id }).expect(201)).body;
    expect(approval.candidate_deciders).toEqual(['role-finance', 'role-ops']);
    // Ops may vote (it is a candidate decider), but its approval counts for its own rule only: no grant, no allow.
    const grant = await decide(ops.key, approval.id, { decision: 'approve', grant: {} });
    expect([grant.status, grant.body.code, grant.body.details?.rules_awaiting]).toEqual([422, 'invalid_grant', [refundRule.id]]);
    const byOps = await decide(ops.key, approval.id, { decision: 'approve' }).expect(200);
    expect(byOps.body).toMatchObject({ status: 'pending', approvals: [{ decider: ops.principalId, rule_ids: [memoRule.id] }] });
    expect((await as(bot.key).check(refund('x')).expect(200)).body.verdict).toBe('approval_required');
    // Finance completes it: each rule has its own approval.
    const byFinance = await decide(finance[0].key, approval.id, { decision: 'approve' }).expect(200);
    expect(byFinance.body).toMatchObject({ status: 'approved', decider: finance[0].principalId });
    expect(byFinance.body.approvals.map((a: { rule_ids: string[] }) => a.rule_ids)).toEqual([[memoRule.id], [refundRule.id]]);
    expect((await as(bot.key).check(refund('x')).expect(200)).body.verdict).toBe('allowed');
    // And the other way round: ops alone never lifts finance's rule, with or without a grant.
    const again = (await as(bot.key).check(refund('y')).expect(200)).body;
    const second = (await as(bot.key).post(`/${t.id}/v1/approvals`).send({ consultation_id: again.consultation_id }).expect(201)).body;
    await decide(ops.key, second.id, { decision: 'approve' }).expect(200);
    expect((await read(second.id)).status).toBe('pending');
  });

  it('rejects with one rejection, also after an approval', async () => {
    const approval = await open(21000);
    await decide(finance[0].key, approval.id, { decision: 'approve' }).expect(200);
    const rejected = await decide(finance[1].key, approval.id, { decision: 'reject', decider_notes: 'no' }).expect(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', decision: 'reject', decider: finance[1].principalId });
    expect(deciders(rejected.body)).toEqual([finance[0].principalId]);
  });

  it('lets an escalation decider decide from escalates_at on, not before', async () => {
    const approval = await open(22000);
    const early = await decide(director.key, approval.id, { decision: 'approve' });
    expect([early.status, early.body.code]).toEqual([403, 'not_a_valid_decider']);
    expect(early.body.details).toMatchObject({ escalates_at: approval.escalates_at, escalation_deciders: ['role-director'] });
    await backdateApproval(stack, approval.id, 'escalates_at');
    const counted = await decide(director.key, approval.id, { decision: 'approve' }).expect(200);
    expect(deciders(counted.body)).toEqual([director.principalId]);
    expect((await decide(finance[0].key, approval.id, { decision: 'approve' }).expect(200)).body.status).toBe('approved');
  });

  it('lets four concurrent approvers reach a quorum of two exactly once', async () => {
    const approval = await open(23000);
    const answers = await Promise.all(finance.map((f) => decide(f.key, approval.id, { decision: 'approve' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(['already_decided', 'already_decided']);
    expect(answers.filter((a) => a.body.status === 'approved')).toHaveLength(1);
    expect((await read(approval.id)).approvals).toHaveLength(2);
    // The one-shot authorisation it made allows the operation once.
    expect((await as(bot.key).check(transfer(23000)).expect(200)).body.verdict).toBe('allowed');
    expect((await as(bot.key).check(transfer(23000)).expect(200)).body.verdict).toBe('approval_required');
  });

  it('answers an approval past expires_at as expired, filters on it, refuses a decision with 409 and announces the stored expiry', async () => {
    const approval = await open(24000);
    const other = await open(25000);
    await decide(finance[0].key, approval.id, { decision: 'approve' }).expect(200);
    await backdateApproval(stack, approval.id, 'expires_at');
    const expired = await as(finance[0].key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200);
    expectConforms(expired, 'get', APPROVAL);
    expect(expired.body.status).toBe('expired');
    const list = async (status: string) =>
      (await as(finance[0].key).get(`/${t.id}/v1/approvals`).query({ status, limit: 1000 }).expect(200)).body.items.map(
        (a: { id: string }) => a.id,
      );
    expect(await list('expired')).toContain(approval.id);
    expect(await list('pending')).not.toContain(approval.id);
    expect(await list('pending')).toContain(other.id);
    for (const decision of ['approve', 'reject']) {
      const refused = await decide(finance[1].key, approval.id, { decision });
      expect([refused.status, refused.body.code]).toEqual([409, 'approval_expired']);
      expect(refused.body.details).toEqual({ status: 'expired', expires_at: expired.body.expires_at });
    }
    const stored = await stack.db('verdict').query('SELECT status, decided_at FROM approvals WHERE id = $1', [approval.id]);
    expect(stored.rows[0]).toEqual({ status: 'expired', decided_at: null });
    // The operation stays refused.
    expect((await as(bot.key).check(transfer(24000)).expect(200)).body.verdict).toBe('approval_required');
    await eventually(
      'approval.resolved with status expired in the feed',
      async () => {
        const feed = await request(stack.registry.url)
          .get(`/api/v1/scopes/${scope}/events`)
          .query({ limit: 1000, type: 'approval.resolved' })
          .set('Authorization', `Bearer ${t.adminKey}`)
          .expect(200);
        const event = feed.body.items.find((e: { entity_id: string }) => e.entity_id === approval.id);
        expect(event?.data).toMatchObject({ status: 'expired', approvals_required: 2, expires_at: expired.body.expires_at });
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  });

  /** A refund of the bot's checked on the gateway at `url` (refunds need finance: approval_required). */
  const checkRefund = (url: string) =>
    request(url).post(`/${t.id}/v1/check`).set('X-API-Key', bot.key).send(transfer(100, 'payments.refund')).expect(200);

  it('takes the instant of a decision under the row lock: a decision that waited for it past expires_at is approval_expired', async () => {
    const shortLived = await stack.startReplica('verdict', { env: { APPROVAL_TTL_SECONDS: '2' } });
    const locker = await stack.db('verdict').connect();
    try {
      const checked = await checkRefund(shortLived.url);
      const approval = (
        await request(shortLived.url)
          .post(`/${t.id}/v1/approvals`)
          .set('X-API-Key', bot.key)
          .send({ consultation_id: checked.body.consultation_id })
          .expect(201)
      ).body as { id: string; expires_at: string };
      // Another decision holds the row (as a slow concurrent decider would) while the approval's two seconds run out.
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM approvals WHERE id = $1 FOR UPDATE', [approval.id]);
      const waiting = decide(finance[0].key, approval.id, { decision: 'approve' }).then((r) => r);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(approval.expires_at) - Date.now()) + 300));
      await locker.query('ROLLBACK');
      const late = await waiting;
      expect([late.status, late.body.code]).toEqual([409, 'approval_expired']);
      expect((await read(approval.id)).status).toBe('expired');
    } finally {
      locker.release();
      await shortLived.close();
    }
  });

  it('expires for real after APPROVAL_TTL_SECONDS, and the waiting SDK ends with approval_expired without polling on', async () => {
    // A replica of the gateway on the same database whose default expiry is two seconds.
    const shortLived = await stack.startReplica('verdict', { env: { APPROVAL_TTL_SECONDS: '2' } });
    try {
      const checked = await checkRefund(shortLived.url);
      expect(checked.body.verdict).toBe('approval_required');
      // The agent's SDK opens the approval on that gateway and waits for it.
      const client = createVerdictClient({ baseUrl: shortLived.url, apiKey: bot.key, tenant: t.id });
      const seen: string[] = [];
      const err = await requestApprovalAndWait(
        client,
        { consultation_id: checked.body.consultation_id },
        { pollMs: 250, timeoutMs: 60_000, onPoll: (a) => seen.push(a.status) },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApprovalWaitError);
      const approval = (err as ApprovalWaitError).approval as { id: string; requested_at: string; expires_at: string };
      expect(err).toMatchObject({ code: 'approval_expired', approval: { status: 'expired' } });
      expect((err as Error).message).toContain(`approval ${approval.id} expired at ${approval.expires_at}`);
      expect(Date.parse(approval.expires_at) - Date.parse(approval.requested_at)).toBe(2000);
      expect(seen[seen.length - 1]).toBe('expired');
      expect(seen.filter((s) => s === 'expired')).toHaveLength(1);
      // The gateway with the default TTL reads the frozen expiry the same way.
      expect((await read(approval.id)).status).toBe('expired');
      const refused = await decide(finance[0].key, approval.id, { decision: 'approve' });
      expect([refused.status, refused.body.code]).toEqual([409, 'approval_expired']);
    } finally {
      await shortLived.close();
    }
  });
});
