import { verifyConsultation } from '@arbiter/client';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, SCOPE_SCHEMA, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const CHECK = '/{tenant_id}/v1/check';
const RESOLVE = '/{tenant_id}/v1/resolve';
const EXPLANATION = '/{tenant_id}/v1/consultations/{consultation_id}/explanation';

/**
 * Explanations on demand (docs/verdicts.md "Explanations") through HTTP: the verdict gateway against a
 * real registry, PostgreSQL and Redis. A check or resolve answer carries `explanation` only when asked;
 * GET .../consultations/<id>/explanation computes the same one later from the frozen record.
 */
describe('explanations on demand', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scope: string;
  const rules: Record<string, { id: string }> = {};

  const op = (action: string, parameters: object) => ({
    action,
    resource: 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'explain-a');
    const reg = registryApi(stack, t.adminKey);
    scope = await reg.scope('whole-tenant');
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
  const explanationOf = async (consultationId: string, key = t.agent.key) => {
    const res = await verdictApi(stack, key, t.id).get(`/${t.id}/v1/consultations/${consultationId}/explanation`).expect(200);
    expectConforms(res, 'get', EXPLANATION);
    return res.body;
  };
  // Byte for byte: the member order is part of what is compared.
  const text = (v: unknown) => JSON.stringify(v);

  it('answers a blocked check without an explanation unless asked; the route computes it from the record, which still verifies', async () => {
    const res = await agent()
      .check(op('payments.transfer', { amount: 25000, currency: 'EUR' }))
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body).toMatchObject({ verdict: 'blocked', dominating_rule_id: rules.large.id });
    expect(res.body).not.toHaveProperty('explanation');

    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body).not.toHaveProperty('explanation');
    const report = await verifyConsultation(stored.body, { jwksUrl: `${stack.verdict.url}/v1/tenants/${t.slug}/jwks` });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.valid).toBe(true);

    expect(await explanationOf(res.body.consultation_id)).toEqual({
      consultation_id: res.body.consultation_id,
      verdict: 'blocked',
      explanation: { not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] },
    });
  });

  it('answers `explain: true` inline, byte for byte what the route computes for the same consultation; the record stays without it', async () => {
    const res = await agent()
      .check({ ...op('payments.transfer', { amount: 25000, currency: 'EUR' }), explain: true })
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body.explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] });
    const later = await explanationOf(res.body.consultation_id);
    expect(text(later.explanation)).toBe(text(res.body.explanation));

    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body).not.toHaveProperty('explanation');
    const report = await verifyConsultation(stored.body, { jwksUrl: `${stack.verdict.url}/v1/tenants/${t.slug}/jwks` });
    expect(report.valid).toBe(true);
  });

  it('answers allowed once the suggested change is applied, with no explanation even when asked; the route says null', async () => {
    const blocked = await agent()
      .check({ ...op('payments.transfer', { amount: 25000, currency: 'EUR' }), explain: true })
      .expect(200);
    const [change] = blocked.body.explanation.to_allow[0].changes;
    const res = await agent()
      .check({ ...op('payments.transfer', { amount: change.value, currency: 'EUR' }), explain: true })
      .expect(200);
    expect(res.body.verdict).toBe('allowed');
    expect(res.body).not.toHaveProperty('explanation');
    expect(await explanationOf(res.body.consultation_id)).toEqual({
      consultation_id: res.body.consultation_id,
      verdict: 'allowed',
      explanation: null,
    });
  });

  it('names the deciders of an approval_required answer, inline and later alike', async () => {
    const res = await agent()
      .check({ ...op('payments.payout', { amount: 800 }), explain: true })
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body.verdict).toBe('approval_required');
    expect(res.body.explanation).toEqual({
      deciders: ['role-finance'],
      not_invertible: [],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 500 }] }],
    });
    expect(text((await explanationOf(res.body.consultation_id)).explanation)).toBe(text(res.body.explanation));
  });

  it('reports a `contains` row as not invertible', async () => {
    const res = await agent()
      .check({ ...op('payments.gift', { memo: 'a birthday gift' }), explain: true })
      .expect(200);
    expect(res.body.verdict).toBe('blocked');
    expect(res.body.explanation).toEqual({ not_invertible: [{ field: 'memo', op: 'contains', rule_id: rules.memo.id }], to_allow: [] });
    expect(text((await explanationOf(res.body.consultation_id)).explanation)).toBe(text(res.body.explanation));
  });

  it('explains a complete resolve through its Facts when asked, both variants; the route agrees', async () => {
    const detailed = {
      action: 'payments.transfer',
      resource: 'acct:eu/4471',
      scope: { region: 'eu', env: 'prod' },
      context: { amount: { value: 25000, source: 'agent' } },
    };
    const quiet = await agent().resolve(detailed).expect(200);
    expect(quiet.body).toMatchObject({ operation_status: 'complete', verdict: 'blocked' });
    expect(quiet.body).not.toHaveProperty('explanation');

    const res = await agent()
      .resolve({ ...detailed, explain: true })
      .expect(200);
    expectConforms(res, 'post', RESOLVE);
    expect(res.body.explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] });
    expect(text((await explanationOf(res.body.consultation_id)).explanation)).toBe(text(res.body.explanation));
    expect(text((await explanationOf(quiet.body.consultation_id)).explanation)).toBe(text(res.body.explanation));

    const overview = await agent()
      .resolve({
        action_type: 'payments.payout',
        context: {
          amount: { value: 900, source: 'agent' },
          region: { value: 'eu', source: 'agent' },
          env: { value: 'prod', source: 'agent' },
        },
        explain: true,
      })
      .expect(200);
    expectConforms(overview, 'post', RESOLVE);
    expect(overview.body).toMatchObject({ operation_status: 'complete', verdict: 'approval_required' });
    expect(overview.body.explanation).toEqual({
      deciders: ['role-finance'],
      not_invertible: [],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 500 }] }],
    });
    expect(text((await explanationOf(overview.body.consultation_id)).explanation)).toBe(text(overview.body.explanation));
  });

  it('refuses an `explain` that is not a boolean with 400 validation_failed, on check and resolve', async () => {
    for (const explain of ['true', 1, null, {}]) {
      const res = await agent()
        .check({ ...op('payments.transfer', { amount: 25000 }), explain })
        .expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'explain' }] } });
    }
    const res = await agent().resolve({ action_type: 'payments.payout', context: {}, explain: 'yes' }).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', details: { fields: [{ field: 'explain' }] } });
  });

  it('answers the route with the codes of the consultation route: 404 unknown, 403 another tenant, 403 without read or check', async () => {
    const blocked = await agent()
      .check(op('payments.transfer', { amount: 25000 }))
      .expect(200);
    const unknown = await agent().get(`/${t.id}/v1/consultations/cns-000000000000000000000000/explanation`).expect(404);
    expect(unknown.body.code).toBe('consultation_not_found');

    const other = await createVerdictTenant(stack, 'explain-other');
    const foreign = await verdictApi(stack, other.agent.key, other.id)
      .get(`/${other.id}/v1/consultations/${blocked.body.consultation_id}/explanation`)
      .expect(403);
    expect(foreign.body.code).toBe('cross_tenant_forbidden');
    const otherPath = await agent().get(`/${other.id}/v1/consultations/${blocked.body.consultation_id}/explanation`).expect(403);
    expect(otherPath.body.code).toBe('cross_tenant_forbidden');

    const approver = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['approve'] });
    const denied = await verdictApi(stack, approver.key, t.id)
      .get(`/${t.id}/v1/consultations/${blocked.body.consultation_id}/explanation`)
      .expect(403);
    expect(denied.body.code).toBe('insufficient_permission');
  });

  it('keeps the explanation of an earlier consultation when its rule changes and an override comes afterwards', async () => {
    const reg = registryApi(stack, t.adminKey);
    const wire = await reg.rule(scope, {
      directive: 'No wires above 1,000',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.wire'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
    });
    const before = await eventually(
      'the wire rule in the snapshot',
      async () => {
        const r = await agent()
          .check({ ...op('payments.wire', { amount: 9000 }), explain: true })
          .expect(200);
        expect(r.body.verdict).toBe('blocked');
        return r;
      },
      { timeoutMs: 5000 },
    );
    expect(before.body.explanation.to_allow).toEqual([{ changes: [{ field: 'amount', op: 'lte', value: 1000 }] }]);

    await reg.updateRule(scope, wire.id, {
      directive: 'No wires above 5,000',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.wire'] },
      conditions: [{ field: 'amount', op: 'gt', value: 5000 }],
    });
    const after = await eventually(
      'the changed wire rule in the snapshot',
      async () => {
        const r = await agent()
          .check({ ...op('payments.wire', { amount: 9000 }), explain: true })
          .expect(200);
        expect(r.body.explanation?.to_allow).toEqual([{ changes: [{ field: 'amount', op: 'lte', value: 5000 }] }]);
        return r;
      },
      { timeoutMs: 5000 },
    );
    await reg.override(scope, {
      target_id: wire.id,
      override_type: 'temporary',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      justification: 'month end',
    });

    expect(text((await explanationOf(before.body.consultation_id)).explanation)).toBe(text(before.body.explanation));
    expect(text((await explanationOf(after.body.consultation_id)).explanation)).toBe(text(after.body.explanation));
  });

  it('keeps the tenant settings it was decided under: a default_verdict changed since does not change the explanation', async () => {
    const s = await createVerdictTenant(stack, 'explain-default', { scope_schema: SCOPE_SCHEMA, default_verdict: 'blocked' });
    const reg = registryApi(stack, s.adminKey);
    const small = await reg.rule(await reg.scope('whole-tenant'), {
      directive: 'Small refunds are fine',
      severity: 'ALLOW',
      applies_to: { actions: ['payments.refund'] },
      conditions: [{ field: 'amount', op: 'lte', value: 100 }],
    });
    const refund = await eventually(
      'the refund rule in the snapshot',
      async () => {
        const r = await verdictApi(stack, s.agent.key, s.id)
          .check({ ...op('payments.refund', { amount: 500 }), explain: true })
          .expect(200);
        expect(r.body.verdict).toBe('blocked');
        return r;
      },
      { timeoutMs: 5000 },
    );
    const explained = await verdictApi(stack, s.agent.key, s.id)
      .get(`/${s.id}/v1/consultations/${refund.body.consultation_id}/explanation`)
      .expect(200);
    expect(text(explained.body.explanation)).toBe(text(refund.body.explanation));

    await reg.patchTenant(s.id, { settings: { scope_schema: SCOPE_SCHEMA, default_verdict: 'allowed' } });
    await eventually(
      'the override in the snapshot',
      async () => {
        const r = await verdictApi(stack, s.agent.key, s.id)
          .check(op('payments.refund', { amount: 500 }))
          .expect(200);
        expect(r.body.verdict).toBe('allowed');
        return true;
      },
      { timeoutMs: 5000 },
    );
    const later = await verdictApi(stack, s.agent.key, s.id)
      .get(`/${s.id}/v1/consultations/${refund.body.consultation_id}/explanation`)
      .expect(200);
    expect(text(later.body.explanation)).toBe(text(refund.body.explanation));
    void small;
  });
});
