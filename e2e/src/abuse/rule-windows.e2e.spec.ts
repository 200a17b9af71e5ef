// Abuse case (docs/registry.md "Budgets, rates and sequences"): the rule fields that remember, from the
// registry's write to the gateway's snapshot. A rule author must not be able to write a budget that opens
// a hole (an ALLOW rule that allows once the budget runs out, a max of 0 or below), neither in the
// registry nor in a simulation; an agent must not dodge a budget by leaving its amount out or by sending a
// negative one. Each refusal sits beside the legitimate use that keeps working: the same budget as a
// MANDATORY rule is stored, versioned, served by the gateway and evaluated there.
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from '../verdict-harness';
import request from 'supertest';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from '../stack';

jest.setTimeout(180_000);

const BUDGET = {
  directive: 'At most 5000 of refunds per agent per day',
  severity: 'MANDATORY',
  applies_to: { actions: ['payments.refund'] },
  limit: { sum: 'parameters.amount', max: 5000, window: '24h', by: ['principal'] },
};
const SEQUENCE = {
  directive: 'A refund only after a review of the same order',
  severity: 'REQUIRES_APPROVAL',
  applies_to: { actions: ['payments.refund'] },
  requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
};

describe('abuse: rule fields that remember', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scopeId: string;
  let budget: { id: string; current_version_id: string };
  let sequence: { id: string; current_version_id: string };
  let plain: { id: string; current_version_id: string };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    t = await createVerdictTenant(stack, 'windows-abuse', {});
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope('payments');
    budget = await reg.rule(scopeId, BUDGET);
    sequence = await reg.rule(scopeId, SEQUENCE);
    plain = await reg.rule(scopeId, { directive: 'Exports are blocked', severity: 'MANDATORY', applies_to: { actions: ['data.export'] } });
  });
  afterAll(() => stack?.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);
  const postRule = (body: object) =>
    request(stack.registry.url).post(`/api/v1/scopes/${scopeId}/rules`).set('Authorization', `Bearer ${t.adminKey}`).send(body);
  const simulate = (rule: object) =>
    verdictApi(stack, t.adminKey, t.id).post(`/${t.id}/v1/simulations`, {
      changes: [{ op: 'create', rule: { ...rule, scope_id: scopeId } }],
    });

  describe('rule authors', () => {
    it.each<[string, object, string]>([
      [
        'a budget on an ALLOW rule (it would allow once the budget runs out)',
        { ...BUDGET, severity: 'ALLOW' },
        'limit: only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it',
      ],
      [
        'a sequence on an ALLOW rule',
        { ...SEQUENCE, severity: 'ALLOW' },
        'requires_prior: only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it',
      ],
      ['a max of 0', { ...BUDGET, limit: { ...BUDGET.limit, max: 0 } }, 'limit.max: a number above 0 and at most 1000000000000000'],
      ['a negative max', { ...BUDGET, limit: { ...BUDGET.limit, max: -5000 } }, 'limit.max: a number above 0 and at most 1000000000000000'],
      [
        'a budget keyed on something no request carries',
        { ...BUDGET, limit: { ...BUDGET.limit, by: ['scope.region'] } },
        'limit.by[0]: principal, on_behalf_of, resource or parameters.<field> (a dot path)',
      ],
    ])('refuses %s in the registry and in a simulation, with the same message', async (_what, rule, problem) => {
      expect((await postRule(rule).expect(400)).body).toEqual({ detail: `Invalid rule: ${problem}` });
      const sim = await simulate(rule).expect(400);
      expect(sim.body).toEqual({
        code: 'validation_failed',
        message: `changes[0].rule: Invalid rule: ${problem}`,
        details: { field: 'changes[0].rule' },
      });
    });

    it('refuses an unknown member of limit in a simulation, naming it, as the registry does', async () => {
      const rule = { ...BUDGET, limit: { ...BUDGET.limit, per: 'principal' } };
      expect((await postRule(rule).expect(400)).body.detail).toContain('limit.per');
      const sim = await simulate(rule).expect(400);
      expect(sim.body).toMatchObject({ code: 'validation_failed', details: { field: 'changes[0].rule.limit.per' } });
    });

    it('accepts the same budget and sequence as holding rules, in the registry (above) and in a simulation', async () => {
      await simulate(BUDGET).expect(200);
      await simulate(SEQUENCE).expect(200);
    });
  });

  describe('the gateway', () => {
    it('serves the fields on the rule versions, only when set, as the OpenAPI document says', async () => {
      const b = await agent().ruleVersion(budget.current_version_id).expect(200);
      expectConforms(b, 'get', '/v1/rule-versions/{rule_version_id}');
      expect(b.body.limit).toEqual(BUDGET.limit);
      expect(b.body).not.toHaveProperty('requires_prior');
      const s = await agent().ruleVersion(sequence.current_version_id).expect(200);
      expect(s.body.requires_prior).toEqual(SEQUENCE.requires_prior);
      expect(s.body).not.toHaveProperty('limit');
      const p = await agent().ruleVersion(plain.current_version_id).expect(200);
      expect(p.body).not.toHaveProperty('limit');
      expect(p.body).not.toHaveProperty('requires_prior');
    });

    const refund = (parameters: object) => ({ action: 'payments.refund', resource: 'order:o-1', scope: {}, parameters });

    it('evaluates the budget from its snapshot: a refund without its amount is 422 insufficient_context naming it', async () => {
      const res = await eventually('the budget rule in the snapshot', async () => {
        const r = await agent().check(refund({ order_id: 'o-1' }));
        return r.status === 422 ? r : null;
      });
      expect(res.body).toMatchObject({
        code: 'insufficient_context',
        details: { missing_fields: expect.arrayContaining(['amount']) },
      });
      const named = res.body.details.required_context.find((f: { field: string }) => f.field === 'amount');
      expect(named.rule_ids).toContain(budget.id);
    });

    it('refuses a negative or non-numeric amount: an amount never gives budget back', async () => {
      for (const amount of [-100, '100']) {
        const res = await agent()
          .check(refund({ order_id: 'o-1', amount }))
          .expect(422);
        expect(res.body).toMatchObject({ code: 'insufficient_context', details: { missing_fields: expect.arrayContaining(['amount']) } });
      }
    });
  });
});
