import express from 'express';
import request from 'supertest';
import {
  createRegistryClient,
  RemoteJwks,
  requestApprovalAndWait,
  requireVerdict,
  resolveUntilComplete,
  VerdictError,
  verifyLedgerBundle,
  verifyVerdict,
  type Context,
  type Requirement,
  type CheckResponse,
  type VerdictClient,
  type WithLimits,
} from '@arbiter/client';
import { startStack, type Stack } from './stack';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';

/** @arbiter/client against the real services (startStack: registry, verdict, ledger on PostgreSQL and Redis). */
describe('@arbiter/client against the running services', () => {
  let stack: Stack;
  let t: SdkTenant;
  let agent: VerdictClient;

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    t = await provisionTenant(stack, 'sdk');
    agent = verdictAs(stack, t.agentKey, t.id);
  });
  afterAll(() => stack.stop());

  it('checks, and verifies the signed verdict against the tenant key set fetched by URL', async () => {
    const op = transfer(500);
    const checked = await agent.check(op);
    expect(checked.verdict).toBe('allowed');
    const { claims, kid } = await verifyVerdict(checked.signed_verdict, { jwksUrl: await agent.jwksUrl(), tenantId: t.id });
    expect(kid).toBe(`${t.id}:${new Date().getUTCFullYear()}`);
    expect(claims).toMatchObject({
      jti: checked.consultation_id,
      verdict: 'allowed',
      action: op.action,
      resource: op.resource,
      scope: op.scope,
      parameters: op.parameters,
      tenant_id: t.id,
    });
  });

  it('turns refusals into VerdictError with the service code and details', async () => {
    const badScope = await agent.check({ ...transfer(1), scope: { planet: 'mars' } }).catch((e: unknown) => e);
    expect(badScope).toBeInstanceOf(VerdictError);
    expect(badScope).toMatchObject({ status: 400, code: 'invalid_scope_field' });
    const missing = await agent
      .check({ action: 'payments.transfer', resource: 'acct:eu/1', scope: { region: 'eu' } })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({
      status: 422,
      code: 'insufficient_context',
      details: { missing_fields: expect.arrayContaining(['beneficiary.country', 'transfer.amount']) },
    });
  });

  it('runs the resolve loop to completion, dropping a fact that falls short of its Requirement', async () => {
    const asked: string[][] = [];
    // A provider that first offers what the agent itself believes (unverified), then what KYC confirmed.
    const provider = (requirements: Requirement[]): Context => {
      asked.push(requirements.map((r) => r.field));
      const facts: Context = {};
      for (const r of requirements) {
        if (r.field === 'transfer.amount') facts[r.field] = { value: 25000, source: 'agent' };
        if (r.field === 'beneficiary.country')
          facts[r.field] =
            asked.length === 1 ? { value: 'DE', source: 'agent' } : { value: 'DE', source: 'kyc', verification_status: 'verified' };
      }
      return facts;
    };
    const result = await resolveUntilComplete(
      agent,
      { action: 'payments.transfer', resource: 'acct:eu/4471', scope: { region: 'eu' }, context: {} },
      provider,
    );
    expect(result).toMatchObject({ rounds: 3, dropped: [{ field: 'beneficiary.country', problems: [{ code: 'not_verified' }] }] });
    expect(asked).toEqual([['beneficiary.country', 'transfer.amount'], ['beneficiary.country']]);
    expect(result.response).toMatchObject({
      operation_status: 'complete',
      verdict: 'approval_required',
      required_context_history: [{ round: 1 }, { round: 2 }, { round: 3, fields: [] }],
    });
    const record = await agent.getConsultation(result.response.consultation_id);
    expect(record.context_snapshot).toEqual(result.context);
  });

  it('outcome() gives back what an allowed operation took of its budget, once; the other value is refused', async () => {
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    const all = (await reg.listScopes()).items.find((x) => x.name === 'all')!.id;
    const rule = await reg.createRule(all, {
      directive: 'At most 1,000 rows exported an hour per agent',
      severity: 'MANDATORY',
      applies_to: { actions: ['reports.export'] },
      limit: { sum: 'parameters.rows', max: 1000, window: '1h', by: ['principal'] },
    });
    const op = { action: 'reports.export', resource: 'report:1', scope: { region: 'eu' }, parameters: { rows: 600 } };
    const check = (): Promise<WithLimits<CheckResponse>> => agent.check(op);
    // The gateway's snapshot of the tenant's rules catches up with the new rule.
    const first = await eventually('the budget rule in force', async () => {
      const c = await check();
      return c.limits?.length ? c : undefined;
    });
    expect(first).toMatchObject({
      verdict: 'allowed',
      limits: [{ rule_id: rule.id, window: '1h', used_before: 0, used_after: 600, max: 1000 }],
    });
    expect(await check()).toMatchObject({ verdict: 'blocked', limits: [{ used_before: 600, used_after: 600 }] });
    const back = await agent.outcome(first.consultation_id, { executed: false });
    expect(back).toMatchObject({
      consultation_id: first.consultation_id,
      executed: false,
      given_back: [{ rule_id: rule.id, key: first.limits![0].key, window: '1h', amount: 600 }],
    });
    expect(await agent.outcome(first.consultation_id, { executed: false })).toEqual(back);
    await expect(agent.outcome(first.consultation_id, { executed: true })).rejects.toMatchObject({
      status: 409,
      code: 'outcome_already_reported',
    });
    expect(await check()).toMatchObject({ verdict: 'allowed', limits: [{ used_before: 0, used_after: 600 }] });
  });

  describe('requireVerdict at an enforcement point', () => {
    let app: express.Express;
    beforeAll(async () => {
      const jwksUrl = await agent.jwksUrl();
      app = express().use(express.json());
      app.post(
        '/transfers',
        requireVerdict({
          jwksUrl,
          tenantId: t.id,
          binding: (req) => ({
            action: 'payments.transfer',
            resource: 'acct:eu/4471',
            scope: { region: 'eu' },
            parameters: { transfer: { amount: req.body.amount } },
          }),
        }),
        (_req, res) => res.status(201).json({ ok: true }),
      );
    });
    const post = (jws: string, amount: number) => request(app).post('/transfers').set('X-Arbiter-Verdict', jws).send({ amount });

    it('lets an allowed verdict for exactly this transfer through, and refuses it for another amount', async () => {
      const { signed_verdict } = await agent.check(transfer(700));
      await post(signed_verdict, 700).expect(201);
      const other = await post(signed_verdict, 7000).expect(403);
      expect(other.body).toMatchObject({ code: 'verdict_binding_mismatch', details: { fields: ['parameters'] } });
    });

    it('refuses a signed blocked verdict with verdict_not_allowed', async () => {
      const blocked = await agent.check(transfer(700, 'IR'));
      expect(blocked.verdict).toBe('blocked');
      expect((await post(blocked.signed_verdict, 700).expect(403)).body.code).toBe('verdict_not_allowed');
    });
  });

  it('after an emergency rotation, old verdicts still verify as evidence but an enforcement point may refuse them', async () => {
    const before = await agent.check(transfer(800));
    const rotation = await verdictAs(stack, t.adminKey, t.id).rotateSigningKey('emergency');
    expect(rotation.retired).toEqual([`${t.id}:${new Date().getUTCFullYear()}`]);
    const jwks = new RemoteJwks(await agent.jwksUrl());
    await expect(verifyVerdict(before.signed_verdict, { jwks })).resolves.toMatchObject({ kid: rotation.retired[0] });
    await expect(verifyVerdict(before.signed_verdict, { jwks, refuseRetiredKeys: true })).rejects.toMatchObject({ code: 'key_retired' });
    const after = await eventually('verdicts signed with the new key', async () => {
      const c = await agent.check(transfer(800));
      return c.signed_verdict.startsWith(before.signed_verdict.split('.')[0]) ? undefined : c;
    });
    await expect(
      verifyVerdict(after.signed_verdict, { jwks: new RemoteJwks(await agent.jwksUrl()), refuseRetiredKeys: true }),
    ).resolves.toMatchObject({ kid: rotation.kid });
  });

  it('seals facts, bundles them and verifies the bundle from API output', async () => {
    const ledger = ledgerAs(stack, t.agentKey);
    const stream = `sdk-${Date.now()}`;
    const first = await ledger.seal(stream, {
      tenant_id: t.id,
      actor: 'agent:payments-bot',
      custom_payload: { note: 'café ✓', amount: 12.5 },
      client_ref: 'r-1',
    });
    expect(first.created).toBe(true);
    expect(
      (await ledger.seal(stream, { tenant_id: t.id, actor: 'agent:payments-bot', custom_payload: {}, client_ref: 'r-1' })).created,
    ).toBe(false);
    await ledger.seal(stream, { tenant_id: t.id, actor: 'human:alice', custom_payload: { n: 2 } });
    const bundle = await ledger.createBundle(stream);
    const facts = await ledger.listAllFacts(stream);
    const keys = await ledgerAs(stack).keys();
    expect(verifyLedgerBundle({ bundle, keys, facts })).toMatchObject({ valid: true, facts_verified: 2 });
    const tampered = structuredClone(facts);
    tampered[0].custom_payload = { note: 'cafe ✓', amount: 12.5 };
    expect(verifyLedgerBundle({ bundle, keys, facts: tampered }).valid).toBe(false);
    await expect(ledger.getBundle('bnd-000000000000000000000000')).rejects.toMatchObject({
      service: 'ledger',
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it("requests an approval, waits for the CFO's decision, and checks again to allowed", async () => {
    const op = transfer(20000);
    const first = await agent.check(op);
    expect(first.verdict).toBe('approval_required');
    const cfo = verdictAs(stack, t.cfoKey, t.id);
    const decide = eventually('the pending approval', async () => {
      const pending = (await cfo.listApprovals({ status: 'pending' })).items.find((a) => a.consultation_id === first.consultation_id);
      if (!pending) return undefined;
      return cfo.decideApproval(pending.id, {
        decision: 'approve',
        decider_notes: 'ok',
        grant: { applies_to_scope: { region: 'eu' }, expires_at: new Date(Date.now() + 3_600_000).toISOString() },
      });
    });
    const [approval] = await Promise.all([
      requestApprovalAndWait(
        agent,
        { consultation_id: first.consultation_id, requester_notes: 'invoice' },
        { pollMs: { initialMs: 50, maxMs: 200 }, timeoutMs: 30_000 },
      ),
      decide,
    ]);
    expect(approval).toMatchObject({
      status: 'approved',
      decision: 'approve',
      decider: t.cfoId,
      consultation_id: first.consultation_id,
      grants: [expect.objectContaining({ override_id: expect.stringMatching(/^ovr-/) })],
    });
    const again = await eventually('the grant to reach the verdict service', async () => {
      const c = await agent.check(op);
      return c.verdict === 'allowed' ? c : undefined;
    });
    expect((await verifyVerdict(again.signed_verdict, { jwksUrl: await agent.jwksUrl() })).claims.verdict).toBe('allowed');
    await expect(cfo.decideApproval(approval.id, { decision: 'reject' })).rejects.toMatchObject({ status: 409, code: 'already_decided' });
  });
});
