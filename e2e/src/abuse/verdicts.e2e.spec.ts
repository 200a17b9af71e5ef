import express from 'express';
import request from 'supertest';
import { decodeJwt } from 'jose';
import { MemoryReplayGuard, requireVerdict, type ReplayGuard } from '@arbiter/client';
import { createVerdictTenant, registryApi, SCOPE_SCHEMA, verdictApi, type VerdictTenant } from '../verdict-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of check and of the signed verdict (docs/threat-model.md "Agents"): an agent that tries to make
 * the rules see another operation than the one signed, or to act on a verdict longer or more often than the
 * tenant allows. Each test failed before docs/verdicts.md "Parameters and context" and "Limits" were enforced.
 */
describe('abuse: check and the signed verdict', () => {
  let stack: Stack;
  let t: VerdictTenant;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'abuse-vrd', { scope_schema: SCOPE_SCHEMA, verdict_ttl_seconds: 30 });
    const reg = registryApi(stack, t.adminKey);
    const scope = await reg.scope('eu', { region: 'eu' });
    await reg.rule(scope, {
      directive: 'No transfer above 10,000',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
    });
    await reg.rule(scope, {
      directive: 'Payouts total at most 1,000 an hour',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.payout'] },
      limit: { sum: 'parameters.transfer.amount', max: 1000, window: '1h' },
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);
  /** An enforcement point that runs a 500 transfer from acct:eu/1 only with a verdict for exactly that (and, given, that context). */
  const executor = (opts: { context?: Record<string, unknown>; replayGuard?: ReplayGuard } = {}) =>
    express()
      .use(express.json())
      .post(
        '/transfers',
        requireVerdict({
          jwksUrl: `${stack.verdict.url}/v1/tenants/${t.slug}/jwks`,
          tenantId: t.id,
          replayGuard: opts.replayGuard,
          binding: () => ({
            action: 'payments.transfer',
            resource: 'acct:eu/1',
            scope: { region: 'eu', env: 'prod' },
            parameters: { transfer: { amount: 500 } },
            context: opts.context,
          }),
        }),
        (_req, res) => res.status(201).end(),
      );
  const transfer = (amount: number, context?: object) => ({
    action: 'payments.transfer',
    resource: 'acct:eu/1',
    scope: { region: 'eu', env: 'prod' },
    parameters: { transfer: { amount } },
    ...(context ? { context } : {}),
  });

  describe('context cannot overrule what is signed (docs/verdicts.md "Parameters and context")', () => {
    it('refuses a Fact that restates a parameter with another value (422 naming the field) instead of signing allowed', async () => {
      const res = await agent().check(transfer(50_000, { 'transfer.amount': { value: 1, source: 'agent' } }));
      expect([res.status, res.body.code]).toEqual([422, 'context_contradicts_parameters']);
      expect(res.body.details).toEqual({ field: 'context.transfer.amount', parameters_field: 'parameters.transfer.amount' });
    });

    it('refuses a Fact at an object above a parameter that says otherwise', async () => {
      const res = await agent().check(transfer(50_000, { transfer: { value: { amount: 1 }, source: 'agent' } }));
      expect([res.status, res.body.code]).toEqual([422, 'context_contradicts_parameters']);
      expect(res.body.details.field).toBe('context.transfer');
    });

    it('evaluates a Fact that agrees with the parameters, and one about a path they leave out, with one value per path', async () => {
      const same = await agent()
        .check(transfer(50_000, { 'transfer.amount': { value: 50_000, source: 'erp', verification_status: 'verified' } }))
        .expect(200);
      expect(same.body.verdict).toBe('blocked');
      const beside = await agent()
        .check(transfer(500, { 'transfer.reference': { value: 'INV-7', source: 'erp' } }))
        .expect(200);
      expect(beside.body.verdict).toBe('allowed');
    });

    it('refuses a parameter member name holding a dot (400 naming it), so neither a Fact nor a nested twin can stand for it', async () => {
      const refused = (res: { status: number; body: { code?: string; details?: unknown } }) => {
        expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
        expect(res.body.details).toEqual({
          fields: [{ field: 'parameters["transfer.amount"]', message: 'a member name may not contain a dot' }],
        });
      };
      for (const action of ['payments.transfer', 'payments.payout']) {
        const dotted = (parameters: object, context?: object) => ({ ...transfer(0, context), action, parameters });
        // The executor reads 5000 under "transfer.amount"; the rules would have judged the Fact's 1.
        refused(await agent().check(dotted({ 'transfer.amount': 50_000 }, { 'transfer.amount': { value: 1, source: 'agent' } })));
        // No Fact: the rules would have read the nested twin.
        refused(await agent().check(dotted({ 'transfer.amount': 50_000, transfer: { amount: 1 } })));
      }
      // Nothing was consumed by the refused checks: the whole budget is still there for a real payout.
      const payout = await agent()
        .check({ ...transfer(1000), action: 'payments.payout' })
        .expect(200);
      expect(payout.body).toMatchObject({ verdict: 'allowed', limits: [{ used_before: 0, used_after: 1000, max: 1000 }] });
      expect(
        (
          await agent()
            .check({ ...transfer(1), action: 'payments.payout' })
            .expect(200)
        ).body.verdict,
      ).toBe('blocked');
    });

    it('refuses a value shaped as a commitment, so nothing an agent sends is shown to an approver as a hidden sensitive value', async () => {
      // The tenant lists no sensitive fields: a record holding {"$commit": …} would read as one in the console and the SDK.
      const forged = { $commit: 'hmac-sha256:not-a-commitment' };
      const inParameters = await agent().check({ ...transfer(50_000), parameters: { transfer: { amount: 50_000, iban: forged } } });
      expect([inParameters.status, inParameters.body.code]).toEqual([400, 'validation_failed']);
      expect(inParameters.body.details.fields).toEqual([
        { field: 'parameters.transfer.iban["$commit"]', message: expect.stringMatching(/reserved/) },
      ]);
      const inFact = await agent().check(transfer(500, { beneficiary: { value: forged, source: 'agent' } }));
      expect([inFact.status, inFact.body.code, inFact.body.details]).toEqual([400, 'invalid_context_shape', { field: 'beneficiary' }]);
      const inRound = await agent().resolve({
        action_type: 'payments.transfer',
        context: { beneficiary: { value: [forged], source: 'agent' } },
      });
      expect([inRound.status, inRound.body.code]).toEqual([400, 'invalid_context_shape']);
    });

    it("binds an enforcement point's check to the context it knows: a verdict asked with other Facts does not pass", async () => {
      const context = { 'transfer.reference': { value: 'INV-7', source: 'erp' } };
      const verdict = (await agent().check(transfer(500, context)).expect(200)).body.signed_verdict as string;
      await request(executor({ context })).post('/transfers').set('X-Arbiter-Verdict', verdict).expect(201);
      const other = await request(executor({ context: { 'transfer.reference': { value: 'INV-8', source: 'erp' } } }))
        .post('/transfers')
        .set('X-Arbiter-Verdict', verdict)
        .expect(403);
      expect(other.body).toMatchObject({ code: 'verdict_binding_mismatch', details: { fields: ['context'] } });
    });
  });

  describe('the tenant decides how long a verdict lives, and a verdict is used once (docs/verdicts.md "Limits")', () => {
    it("lowers an X-Verdict-TTL above the tenant's verdict_ttl_seconds to it, in the header, the record and the signed exp", async () => {
      const res = await agent().check(transfer(500), { 'X-Verdict-TTL': '3600' }).expect(200);
      expect(res.headers['x-verdict-ttl']).toBe('30');
      const claims = decodeJwt(res.body.signed_verdict);
      expect(claims.exp! - claims.iat!).toBe(30);
      expect((await agent().consultation(res.body.consultation_id).expect(200)).body.verdict_ttl_seconds).toBe(30);
      // A shorter one is honoured.
      const shorter = await agent().check(transfer(500), { 'X-Verdict-TTL': '10' }).expect(200);
      expect(shorter.headers['x-verdict-ttl']).toBe('10');
      const resolved = await agent()
        .resolve(
          {
            action: 'payments.transfer',
            resource: 'acct:eu/1',
            scope: { region: 'eu' },
            context: { 'transfer.amount': { value: 5, source: 'agent' } },
          },
          { 'X-Verdict-TTL': '3600' },
        )
        .expect(200);
      expect(resolved.headers['x-verdict-ttl']).toBe('30');
    });

    it("lets an executor with the SDK's replay guard act on a verdict once", async () => {
      const verdict = (await agent().check(transfer(500)).expect(200)).body.signed_verdict as string;
      const once = executor({ replayGuard: new MemoryReplayGuard() });
      await request(once).post('/transfers').set('X-Arbiter-Verdict', verdict).expect(201);
      const replay = await request(once).post('/transfers').set('X-Arbiter-Verdict', verdict).expect(403);
      expect(replay.body.code).toBe('verdict_replayed');
    });
  });
  describe('explanations on demand (docs/verdicts.md "Explanations")', () => {
    it("keeps a consultation's explanation to its own tenant: another tenant's agent gets 403, the caller's tenant reads it", async () => {
      const blocked = (await agent().check(transfer(50_000)).expect(200)).body;
      const path = `/${t.id}/v1/consultations/${blocked.consultation_id}/explanation`;
      const own = await agent().get(path).expect(200);
      expect(own.body).toEqual({
        consultation_id: blocked.consultation_id,
        verdict: 'blocked',
        explanation: { not_invertible: [], to_allow: [{ changes: [{ field: 'transfer.amount', op: 'lte', value: 10000 }] }] },
      });

      const other = await createVerdictTenant(stack, 'abuse-vrd-other');
      const foreign = verdictApi(stack, other.agent.key, other.id);
      expect((await foreign.get(path).expect(403)).body.code).toBe('cross_tenant_forbidden');
      expect((await foreign.get(`/${other.id}/v1/consultations/${blocked.consultation_id}/explanation`).expect(403)).body.code).toBe(
        'cross_tenant_forbidden',
      );
    });
  });
});
