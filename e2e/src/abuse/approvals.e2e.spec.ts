import request from 'supertest';
import { createPrincipalWithKey } from '../../../apps/registry/test/harness';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from '../verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of verdict approvals (docs/threat-model.md "Approvers and approvals"): the ways around an
 * approval that a security review found, each driven through the public API as the attacker would.
 * Every test here failed before the fixes of docs/approvals.md "Who asks", "Deciding" and "Grants".
 */
describe('abuse: verdict approvals', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let payScope: string;
  let hrScope: string;
  let transferRule: { id: string; current_version_id: string };
  let agent1: { principalId: string; key: string };
  let agent2: { principalId: string; key: string };
  let finance: { principalId: string; key: string };
  let payApprover: { principalId: string; key: string };
  let hrApprover: { principalId: string; key: string };
  let hrAdmin: { principalId: string; key: string };

  const SCHEMA = { fields: { dept: { allowed_values: ['payments', 'hr'] }, region: { allowed_values: ['eu', 'us'] } } };
  const PAY_EU = { dept: 'payments', region: 'eu' };

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'abuse-apr', { scope_schema: SCHEMA });
    const reg = registryApi(stack, t.adminKey);
    payScope = await reg.scope('payments', { dept: 'payments' });
    hrScope = await reg.scope('hr', { dept: 'hr' });
    const needsApproval = { severity: 'REQUIRES_APPROVAL' };
    transferRule = await reg.rule(payScope, {
      ...needsApproval,
      directive: 'Transfers above 10,000 need approval',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
    });
    await reg.rule(payScope, {
      ...needsApproval,
      directive: 'Payouts above 10,000 need approval',
      applies_to: { actions: ['payments.payout'] },
      conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
    });
    await reg.rule(payScope, {
      ...needsApproval,
      directive: 'Refunds above 100 need finance',
      applies_to: { actions: ['payments.refund'] },
      conditions: [{ field: 'refund.amount', op: 'gt', value: 100 }],
      deciders: ['role-finance'],
    });
    await reg.rule(payScope, {
      ...needsApproval,
      directive: 'Treasury moves need treasury',
      applies_to: { actions: ['treasury.move'] },
      deciders: ['role-treasury'],
    });
    const mk = (opts: Parameters<typeof createPrincipalWithKey>[2]) => createPrincipalWithKey(stack.registry, t.adminKey, opts);
    agent1 = await mk({ kind: 'agent', permissions: ['check', 'read'] });
    // An agent that may also approve, and holds the role the refund rule names.
    agent2 = await mk({ kind: 'agent', permissions: ['check', 'read', 'approve'], roles: ['role-finance'] });
    finance = await mk({ kind: 'human', permissions: ['approve'], roles: ['role-finance'] });
    payApprover = await mk({ kind: 'human', permissions: ['approve'], scope_ids: [payScope] });
    hrApprover = await mk({ kind: 'human', permissions: ['approve'], scope_ids: [hrScope] });
    hrAdmin = await mk({ kind: 'human', permissions: ['admin'], scope_ids: [hrScope] });
  });
  afterAll(() => stack.stop());

  const as = (key: string) => verdictApi(stack, key, t.id);
  const open = (key: string, consultationId: string) => as(key).post(`/${t.id}/v1/approvals`, { consultation_id: consultationId });
  const decide = (key: string, id: string, body: object) => as(key).post(`/${t.id}/v1/approvals/${id}/decision`, body);

  async function approvalRequired(key: string, body: object): Promise<string> {
    const res = await as(key).check(body).expect(200);
    expect(res.body.verdict).toBe('approval_required');
    return res.body.consultation_id;
  }

  describe('the requester is who asked (docs/approvals.md "Who asks")', () => {
    const refund = (amount: number, extra: object = {}) => ({
      action: 'payments.refund',
      resource: 'order:1',
      scope: PAY_EU,
      parameters: { refund: { amount } },
      ...extra,
    });

    it("refuses an approval opened by another principal than the consultation's: agent 1 cannot open agent 2's", async () => {
      const consultation = await approvalRequired(agent2.key, refund(500));
      const stolen = await open(agent1.key, consultation);
      expect([stolen.status, stolen.body.code]).toEqual([403, 'not_the_requester']);
      expect(stolen.body.details).toEqual({ consultation_id: consultation, caller_principal_id: agent2.principalId });
      const own = await open(agent2.key, consultation).expect(201);
      expect(own.body).toMatchObject({ requester: agent2.principalId, requester_principal: agent2.principalId });
    });

    it("never lets the consultation's principal decide its own operation, even holding approve and a listed role", async () => {
      const consultation = await approvalRequired(agent2.key, refund(600));
      const approval = (await open(agent2.key, consultation).expect(201)).body;
      const self = await decide(agent2.key, approval.id, { decision: 'approve' });
      expect([self.status, self.body.code]).toEqual([403, 'not_a_valid_decider']);
      expect(self.body.details).toMatchObject({ requester: agent2.principalId });
      await decide(finance.key, approval.id, { decision: 'approve' }).expect(200);
    });

    it('never lets the human the agent acted for (on_behalf_of) decide it either', async () => {
      const consultation = await approvalRequired(agent1.key, refund(700, { on_behalf_of: finance.principalId }));
      const approval = (await open(agent1.key, consultation).expect(201)).body;
      expect(approval).toMatchObject({ requester: agent1.principalId, requester_principal: finance.principalId });
      const forSelf = await decide(finance.key, approval.id, { decision: 'approve' });
      expect([forSelf.status, forSelf.body.code]).toEqual([403, 'not_a_valid_decider']);
      expect(forSelf.body.details).toMatchObject({ requester_principal: finance.principalId });
      // Someone else who holds the role decides it.
      const other = await createPrincipalWithKey(stack.registry, t.adminKey, {
        kind: 'human',
        permissions: ['approve'],
        roles: ['role-finance'],
      });
      await decide(other.key, approval.id, { decision: 'reject' }).expect(200);
    });

    it('refuses a decider the tenant state shows deactivated while its key is still cached as active (a lost revocation)', async () => {
      const approver = await createPrincipalWithKey(stack.registry, t.adminKey, {
        kind: 'human',
        permissions: ['approve', 'check', 'read'],
        roles: ['role-finance'],
      });
      const consultation = await approvalRequired(agent1.key, refund(800));
      const approval = (await open(agent1.key, consultation).expect(201)).body;
      await as(approver.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200); // its identity cached, active
      // Deactivated as a registry write whose announcement to the key caches was lost (Redis away): the state moves,
      // the gateway's poll picks it up, the key cache does not hear of it.
      const db = stack.db('registry');
      await db.query('UPDATE principals SET active = false WHERE id = $1', [approver.principalId]);
      await db.query('UPDATE tenant_heads SET revision = revision + 1 WHERE tenant_id = $1', [t.id]);
      await eventually('the gateway to see the deactivation in the tenant state', async () => {
        const res = await as(approver.key).check(refund(1));
        return res.status === 403 && res.body.code === 'principal_deactivated';
      });
      const refused = await decide(approver.key, approval.id, { decision: 'approve' });
      expect([refused.status, refused.body.code]).toEqual([403, 'principal_deactivated']);
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200)).body.status).toBe('pending');
      await decide(finance.key, approval.id, { decision: 'reject' }).expect(200);
    });

    it('never lets an operation approved for nobody pass as done for the human who approved it (nor for another), and lets it pass as approved', async () => {
      // The agent asks for nobody, so the finance human may decide; it then names that human as on_behalf_of.
      const consultation = await approvalRequired(agent1.key, refund(800));
      const approval = (await open(agent1.key, consultation).expect(201)).body;
      expect(approval.requester_principal).toBe(agent1.principalId);
      await decide(finance.key, approval.id, { decision: 'approve' }).expect(200);
      for (const actingFor of [finance.principalId, agent2.principalId]) {
        const res = await as(agent1.key)
          .check(refund(800, { on_behalf_of: actingFor }))
          .expect(200);
        expect(res.body.verdict).toBe('approval_required');
      }
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200)).body.consumed_by).toBeNull();
      // The operation as approved (for nobody) is allowed once.
      const allowed = await eventually(
        'the approval to allow the refund',
        async () => {
          const res = await as(agent1.key).check(refund(800)).expect(200);
          if (res.body.verdict !== 'allowed') throw new Error(`still ${res.body.verdict}`);
          return res;
        },
        { timeoutMs: 5_000 },
      );
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200)).body.consumed_by).toBe(
        allowed.body.consultation_id,
      );
    });

    it('uses an operation approved for a person only for that person', async () => {
      const other = await createPrincipalWithKey(stack.registry, t.adminKey, {
        kind: 'human',
        permissions: ['approve'],
        roles: ['role-finance'],
      });
      const consultation = await approvalRequired(agent1.key, refund(900, { on_behalf_of: agent2.principalId }));
      const approval = (await open(agent1.key, consultation).expect(201)).body;
      await decide(other.key, approval.id, { decision: 'approve' }).expect(200);
      expect((await as(agent1.key).check(refund(900)).expect(200)).body.verdict).toBe('approval_required');
      expect(
        (
          await as(agent1.key)
            .check(refund(900, { on_behalf_of: other.principalId }))
            .expect(200)
        ).body.verdict,
      ).toBe('approval_required');
      await eventually(
        'the approval to allow the refund for its principal',
        async () => {
          const res = await as(agent1.key)
            .check(refund(900, { on_behalf_of: agent2.principalId }))
            .expect(200);
          if (res.body.verdict !== 'allowed') throw new Error(`still ${res.body.verdict}`);
          return res;
        },
        { timeoutMs: 5_000 },
      );
    });
  });

  describe('a one-shot approval covers the context (docs/approvals.md "The agent\'s loop")', () => {
    const payout = (amount: number) => ({
      action: 'payments.payout',
      resource: 'acct:7',
      scope: PAY_EU,
      context: { amount: { value: amount, source: 'invoice' } },
    });

    it('is not used by a check that gives the same operation another amount as a Fact', async () => {
      const consultation = await approvalRequired(agent1.key, payout(10_001));
      const approval = (await open(agent1.key, consultation).expect(201)).body;
      await decide(finance.key, approval.id, { decision: 'approve' }).expect(200);

      const bigger = await as(agent1.key).check(payout(5_000_000)).expect(200);
      expect(bigger.body.verdict).toBe('approval_required');
      const still = await as(agent1.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200);
      expect(still.body.consumed_by).toBeNull();

      // The approved operation with its approved context is allowed, once.
      const approved = await eventually(
        'the approval to allow the payout',
        async () => {
          const res = await as(agent1.key).check(payout(10_001)).expect(200);
          if (res.body.verdict !== 'allowed') throw new Error(`still ${res.body.verdict}`);
          return res;
        },
        { timeoutMs: 5_000 },
      );
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${approval.id}`).expect(200)).body.consumed_by).toBe(
        approved.body.consultation_id,
      );
      expect((await as(agent1.key).check(payout(10_001)).expect(200)).body.verdict).toBe('approval_required');
    });
  });

  describe('grants are bounded like the registry\'s (docs/approvals.md "Grants")', () => {
    const transfer = (amount: number, scope: object = PAY_EU) => ({
      action: 'payments.transfer',
      resource: 'acct:eu/9',
      scope,
      parameters: { transfer: { amount } },
    });

    async function pendingTransfer(): Promise<string> {
      const consultation = await approvalRequired(agent1.key, transfer(50_000));
      return (await open(agent1.key, consultation).expect(201)).body.id;
    }

    it("refuses a decision by a key restricted to another scope than the triggering rules' (hr deciding payments)", async () => {
      const id = await pendingTransfer();
      const hr = await decide(hrApprover.key, id, {
        decision: 'approve',
        grant: { applies_to_scope: {}, expires_at: '2099-01-01T00:00:00Z' },
      });
      expect([hr.status, hr.body.code]).toEqual([403, 'not_a_valid_decider']);
      expect(hr.body.details).toMatchObject({ reason: 'scope_not_covered', scopes_not_covered: [payScope] });
      const hrReject = await decide(hrApprover.key, id, { decision: 'reject' });
      expect([hrReject.status, hrReject.body.code]).toEqual([403, 'not_a_valid_decider']);
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${id}`).expect(200)).body.status).toBe('pending');
      // A key of the payments scope may.
      await decide(payApprover.key, id, { decision: 'reject' }).expect(200);
    });

    it("keeps a key restricted to a scope out of other scopes' approvals, consultations and rule versions (404, left out of lists)", async () => {
      const id = await pendingTransfer();
      const approval = (await as(agent1.key).get(`/${t.id}/v1/approvals/${id}`).expect(200)).body;
      const consultation = approval.consultation_id as string;
      const version = approval.triggers[0].rule_version_id as string;
      const reader = (scopeId: string) =>
        createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['read'], scope_ids: [scopeId] });
      const [hr, pay] = await Promise.all([reader(hrScope), reader(payScope)]);
      const reads = async (key: string) => ({
        approval: (await as(key).get(`/${t.id}/v1/approvals/${id}`)).status,
        consultation: (await as(key).get(`/${t.id}/v1/consultations/${consultation}`)).status,
        explanation: (await as(key).get(`/${t.id}/v1/consultations/${consultation}/explanation`)).status,
        version: (await as(key).get(`/v1/rule-versions/${version}`)).status,
        approvals: ((await as(key).get(`/${t.id}/v1/approvals?limit=1000`).expect(200)).body.items as { id: string }[]).some(
          (a) => a.id === id,
        ),
        consultations: ((await as(key).get(`/${t.id}/v1/consultations?limit=1000`).expect(200)).body.items as { id: string }[]).some(
          (c) => c.id === consultation,
        ),
      });
      expect(await reads(hr.key)).toEqual({
        approval: 404,
        consultation: 404,
        explanation: 404,
        version: 404,
        approvals: false,
        consultations: false,
      });
      expect(await reads(pay.key)).toEqual({
        approval: 200,
        consultation: 200,
        explanation: 200,
        version: 200,
        approvals: true,
        consultations: true,
      });
      // A key valid for every scope reads them all.
      expect(await reads(agent1.key)).toMatchObject({ approval: 200, consultation: 200, approvals: true, consultations: true });
      // A key of the same agent restricted to hr (a restricted admin may mint one) neither asks for the approval of its
      // payments consultation nor reports its outcome (which would give back what it took in payments' windows).
      const kx = (
        await request(stack.registry.url)
          .post('/api/v1/api-keys')
          .set('Authorization', `Bearer ${t.adminKey}`)
          .send({ principal_id: agent1.principalId, permissions: ['check', 'read'], scope_ids: [hrScope] })
          .expect(201)
      ).body.key as string;
      const another = await approvalRequired(agent1.key, transfer(60_000));
      const asked = await open(kx, another);
      expect([asked.status, asked.body.code]).toEqual([404, 'consultation_not_found']);
      const reported = await as(kx).post(`/${t.id}/v1/consultations/${another}/outcome`, { executed: false });
      expect([reported.status, reported.body.code]).toEqual([404, 'consultation_not_found']);
      await as(agent1.key).post(`/${t.id}/v1/consultations/${another}/outcome`, { executed: false }).expect(200);
      await open(agent1.key, another).expect(201);
      // Nor does a simulation, which replays every scope's consultations, take a restricted key.
      const author = await createPrincipalWithKey(stack.registry, t.adminKey, {
        kind: 'human',
        permissions: ['manage_rules'],
        scope_ids: [hrScope],
      });
      const simulated = await as(author.key).post(`/${t.id}/v1/simulations`, { changes: [], window: { last: 10 } });
      expect([simulated.status, simulated.body.code]).toEqual([403, 'insufficient_permission']);
    });

    it('refuses a tenant-wide grant and one that outlives APPROVAL_GRANT_TTL_SECONDS; a bounded one covers the approved scope only', async () => {
      const id = await pendingTransfer();
      const tenantWide = await decide(payApprover.key, id, {
        decision: 'approve',
        grant: { applies_to_scope: {}, expires_at: new Date(Date.now() + 600_000).toISOString() },
      });
      expect([tenantWide.status, tenantWide.body.code]).toEqual([422, 'invalid_grant']);
      expect(tenantWide.body.details).toMatchObject({ field: 'grant.applies_to_scope' });
      const forever = await decide(payApprover.key, id, {
        decision: 'approve',
        grant: { applies_to_scope: PAY_EU, expires_at: '2099-01-01T00:00:00Z' },
      });
      expect([forever.status, forever.body.code]).toEqual([422, 'invalid_grant']);
      expect(forever.body.details).toMatchObject({ field: 'grant.expires_at', max_seconds: 3600 });

      const before = Date.now();
      const approved = await decide(payApprover.key, id, { decision: 'approve', grant: {} }).expect(200);
      const [grant] = approved.body.grants;
      expect(grant.applies_to_scope).toEqual(PAY_EU);
      expect(Date.parse(grant.expires_at)).toBeLessThanOrEqual(before + 3_600_000 + 5_000);

      await eventually(
        'the grant to allow the transfer',
        async () => {
          const res = await as(agent1.key).check(transfer(90_000)).expect(200);
          if (res.body.verdict !== 'allowed') throw new Error(`still ${res.body.verdict}`);
          return true;
        },
        { timeoutMs: 5_000 },
      );
      // Another region is outside the approved scope: still approval_required.
      expect(
        (
          await as(agent1.key)
            .check(transfer(90_000, { dept: 'payments', region: 'us' }))
            .expect(200)
        ).body.verdict,
      ).toBe('approval_required');
    });

    it('does not lift the rule once it changed since the grant: made MANDATORY, the transfer is blocked', async () => {
      // The grant of the previous test is in force for payments/eu transfers.
      expect((await as(agent1.key).check(transfer(90_000)).expect(200)).body.verdict).toBe('allowed');
      await registryApi(stack, t.adminKey).updateRule(payScope, transferRule.id, {
        directive: 'Transfers above 10,000 are forbidden',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.transfer'] },
        conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      });
      const blocked = await eventually(
        'the changed rule to block',
        async () => {
          const res = await as(agent1.key).check(transfer(90_000)).expect(200);
          if (res.body.verdict !== 'blocked') throw new Error(`still ${res.body.verdict}`);
          return res;
        },
        { timeoutMs: 5_000 },
      );
      const record = await as(agent1.key).consultation(blocked.body.consultation_id).expect(200);
      expect(record.body.precedence_trace.find((e: { rule_id: string }) => e.rule_id === transferRule.id)).toMatchObject({
        reason: 'fires',
        overrides_not_applied: [expect.objectContaining({ reason: 'override_rule_changed' })],
      });
    });
    it('refuses every grant of an operation checked with scope {} (a rule of a tenant-wide scope) and approves it once', async () => {
      const reg = registryApi(stack, t.adminKey);
      const everywhere = await reg.scope('everywhere', {});
      await reg.rule(everywhere, {
        severity: 'REQUIRES_APPROVAL',
        directive: 'Purges need approval',
        applies_to: { actions: ['ops.purge'] },
      });
      const purge = { action: 'ops.purge', resource: 'db:main', scope: {} };
      const consultation = await eventually(
        'the purge rule to apply',
        async () => {
          const res = await as(agent1.key).check(purge).expect(200);
          return res.body.verdict === 'approval_required' && (res.body.consultation_id as string);
        },
        { timeoutMs: 5_000 },
      );
      const id = (await open(agent1.key, consultation).expect(201)).body.id;
      // Neither {} nor the default (the approved scope, which is {}) may lift the rule for every operation.
      for (const grant of [{ applies_to_scope: {} }, {}]) {
        const res = await decide(finance.key, id, { decision: 'approve', grant });
        expect([res.status, res.body.code]).toEqual([422, 'invalid_grant']);
        expect(res.body.details).toEqual({ field: 'grant.applies_to_scope', approved_scope: {} });
      }
      expect((await as(agent1.key).get(`/${t.id}/v1/approvals/${id}`).expect(200)).body.status).toBe('pending');
      expect((await decide(finance.key, id, { decision: 'approve' }).expect(200)).body.grants ?? []).toEqual([]);
      const once = await eventually(
        'the approval to allow the purge',
        async () => {
          const res = await as(agent1.key).check(purge).expect(200);
          return res.body.verdict === 'allowed' && res;
        },
        { timeoutMs: 5_000 },
      );
      expect(once.body.verdict).toBe('allowed');
      expect((await as(agent1.key).check(purge).expect(200)).body.verdict).toBe('approval_required');
    });
  });

  describe('a scope-restricted admin stays inside its scopes (docs/identity.md "Privilege boundaries")', () => {
    const mint = (principalId: string, permissions: string[], scopeIds: string[] = [hrScope]) =>
      request(stack.registry.url)
        .post('/api/v1/api-keys')
        .set('Authorization', `Bearer ${hrAdmin.key}`)
        .send({ principal_id: principalId, permissions, scope_ids: scopeIds });
    const human = async (roles: string[] = []) =>
      (
        await request(stack.registry.url)
          .post('/api/v1/principals')
          .set('Authorization', `Bearer ${t.adminKey}`)
          .send({ kind: 'human', name: 'h', roles })
          .expect(201)
      ).body.id as string;

    it('cannot mint an approve key for a principal that decides tenant-wide, by a key or by a role', async () => {
      const byKey = await mint(finance.principalId, ['approve']);
      expect(byKey.status).toBe(403);
      expect(byKey.body.detail).toMatch(/decides beyond those scopes/);
      const treasurer = await human(['role-treasury']);
      expect((await mint(treasurer, ['approve'])).status).toBe(403);
      expect((await mint(treasurer, ['admin'])).status).toBe(403);
    });

    it('cannot mint one for an escalation decider of another scope, nor for a principal who may approve in the console', async () => {
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${payScope}/rules`)
        .set('Authorization', `Bearer ${t.adminKey}`)
        .send({
          directive: 'Payment holds escalate to the CFO after an hour',
          severity: 'REQUIRES_APPROVAL',
          applies_to: { actions: ['payments.hold'] },
          deciders: ['role-payments-ops'],
          escalate_after: 3600,
          escalation_deciders: ['role-cfo'],
        })
        .expect(201);
      const cfo = await human(['role-cfo']);
      const escalation = await mint(cfo, ['approve']);
      expect([escalation.status, escalation.body.detail]).toEqual([403, expect.stringMatching(/decides beyond those scopes/)]);
      // A console session reaches every scope: console approve makes a decider of every scope.
      const deskUser = (
        await request(stack.registry.url)
          .post('/api/v1/principals')
          .set('Authorization', `Bearer ${t.adminKey}`)
          .send({ kind: 'human', name: 'desk', console_permissions: ['read', 'approve'] })
          .expect(201)
      ).body.id as string;
      expect((await mint(deskUser, ['approve'])).status).toBe(403);
      // A console reader is no decider.
      const reader = (
        await request(stack.registry.url)
          .post('/api/v1/principals')
          .set('Authorization', `Bearer ${t.adminKey}`)
          .send({ kind: 'human', name: 'reader', console_permissions: ['read'] })
          .expect(201)
      ).body.id as string;
      expect((await mint(reader, ['approve'])).status).toBe(201);
    });

    it('still mints approve keys for its own deciders, and keys without approve for anyone it may reach', async () => {
      const hrPerson = await human(['role-hr']);
      expect((await mint(hrPerson, ['approve'])).status).toBe(201);
      expect((await mint(finance.principalId, ['read'])).status).toBe(201);
    });

    it("lists only the keys it could revoke: none of another scope's or of every scope, nor their scope ids", async () => {
      const list = async (key: string, query = '') => {
        const ids: string[] = [];
        let cursor: string | undefined;
        do {
          const res = await request(stack.registry.url)
            .get(`/api/v1/api-keys?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
            .set('Authorization', `Bearer ${key}`)
            .expect(200);
          for (const k of res.body.items) {
            ids.push(k.id);
            if (key === hrAdmin.key) expect(k.scope_ids.length > 0 && k.scope_ids.every((s: string) => s === hrScope)).toBe(true);
          }
          cursor = res.body.next_cursor ?? undefined;
        } while (cursor);
        return ids;
      };
      const minted = [];
      for (const roles of [['role-hr'], []]) minted.push((await mint(await human(roles), ['read'])).body.id as string);
      const everyKey = await list(t.adminKey);
      const restricted = await list(hrAdmin.key);
      // Its own key, hrApprover's and what it minted are listed, page by page; payApprover's and the admin's are not.
      const keyOf = async (principalId: string) => (await list(t.adminKey, `&principal_id=${principalId}`))[0];
      expect(restricted).toEqual(expect.arrayContaining([await keyOf(hrAdmin.principalId), await keyOf(hrApprover.principalId)]));
      expect(restricted).not.toContain(await keyOf(payApprover.principalId));
      expect(restricted).toEqual(expect.arrayContaining(minted));
      expect(restricted.length).toBeLessThan(everyKey.length);
      expect(await list(hrAdmin.key, `&principal_id=${payApprover.principalId}`)).toEqual([]);
      expect(await list(hrAdmin.key, `&principal_id=${hrApprover.principalId}`)).toHaveLength(1);
    });
  });
});
