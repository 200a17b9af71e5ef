import { verifyConsultation } from '@arbiter/client';
import { createVerdictTenant, expectConforms, registryApi, startVerdictStack, verdictApi, type VerdictStack, type VerdictTenant } from './verdict-harness';

const CHECK = '/{tenant_id}/v1/check';
const RESOLVE = '/{tenant_id}/v1/resolve';

/** Explanations (docs/verdicts.md "Explanations") through HTTP: the verdict gateway against a real registry, PostgreSQL and Redis. */
describe('explanation on blocked and approval_required answers', () => {
  let stack: VerdictStack;
  let t: VerdictTenant;
  const rules: Record<string, { id: string }> = {};

  const op = (action: string, parameters: object) => ({ action, resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' }, parameters });

  beforeAll(async () => {
    stack = await startVerdictStack();
    t = await createVerdictTenant(stack, 'explain-a');
    const reg = registryApi(stack, t.adminKey);
    const scope = await reg.scope('whole-tenant');
    rules.large = await reg.rule(scope, {
      directive: 'No transfers above 10,000',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
    });
    rules.payout = await reg.rule(scope, {
      directive: 'Payouts above 500 need finance approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.payout'] },
      conditions: [{ field: 'amount', op: 'gt', value: 500 }],
      deciders: ['role-finance'],
    });
    rules.memo = await reg.rule(scope, {
      directive: 'No gift memos',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.gift'] },
      conditions: [{ field: 'memo', op: 'contains', value: 'gift' }],
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  it('answers a check blocked by `amount gt 10000` with `amount lte 10000`; the record carries the same explanation and still verifies', async () => {
    const res = await agent().check(op('payments.transfer', { amount: 25000, currency: 'EUR' })).expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body).toMatchObject({ verdict: 'blocked', dominating_rule_id: rules.large.id });
    expect(res.body.explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] });

    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body.explanation).toEqual(res.body.explanation);
    // The explanation is part of the hashed and signed record: the SDK's verifier recomputes it.
    const report = await verifyConsultation(stored.body, { jwksUrl: `${stack.verdict.url}/v1/tenants/${t.slug}/jwks` });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it('answers allowed once the suggested change is applied, with no explanation', async () => {
    const blocked = await agent().check(op('payments.transfer', { amount: 25000, currency: 'EUR' })).expect(200);
    const [change] = blocked.body.explanation.to_allow[0].changes;
    const res = await agent().check(op('payments.transfer', { amount: change.value, currency: 'EUR' })).expect(200);
    expect(res.body.verdict).toBe('allowed');
    expect(res.body).not.toHaveProperty('explanation');
    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body).not.toHaveProperty('explanation');
  });

  it('names the deciders of an approval_required answer', async () => {
    const res = await agent().check(op('payments.payout', { amount: 800 })).expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body.verdict).toBe('approval_required');
    expect(res.body.explanation).toEqual({
      deciders: ['role-finance'],
      not_invertible: [],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 500 }] }],
    });
    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body.explanation).toEqual(res.body.explanation);
  });

  it('reports a `contains` row as not invertible', async () => {
    const res = await agent().check(op('payments.gift', { memo: 'a birthday gift' })).expect(200);
    expect(res.body.verdict).toBe('blocked');
    expect(res.body.explanation).toEqual({ not_invertible: [{ field: 'memo', op: 'contains', rule_id: rules.memo.id }], to_allow: [] });
  });

  it('explains a complete resolve through its Facts', async () => {
    const res = await agent()
      .resolve({ action: 'payments.transfer', resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' }, context: { amount: { value: 25000, source: 'agent' } } })
      .expect(200);
    expectConforms(res, 'post', RESOLVE);
    expect(res.body).toMatchObject({ operation_status: 'complete', verdict: 'blocked' });
    expect(res.body.explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] });
  });
});
