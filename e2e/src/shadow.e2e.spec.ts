// Shadow rules through the real stack (docs/verdicts.md "Shadow rules"): a registry that knows the
// verdict gateway (VERDICT_URL) and a verdict gateway, each on its own database, over real HTTP.
import request from 'supertest';
import { verifyConsultation } from '@arbiter/client';
import { eventually } from '@arbiter/testing';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

jest.setTimeout(120_000);

describe('shadow rules end to end', () => {
  let stack: Stack;
  let tenant: VerdictTenant;
  let rules: ReturnType<typeof registryApi>;
  let agent: ReturnType<typeof verdictApi>;
  let scopeId: string;
  let blocking: { id: string; current_version_id: string };
  let agreeing: { id: string; current_version_id: string };

  const transfer = (amount: number) => ({
    action: 'payments.transfer',
    resource: 'acct:eu/1',
    scope: { region: 'eu' },
    parameters: { amount },
  });
  const blockingBody = (mode: 'shadow' | 'enforce') => ({
    directive: 'Transfers above 10,000 are blocked',
    severity: 'MANDATORY',
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
    mode,
  });
  const shadowReport = (ruleId: string) =>
    request(stack.registry.url).get(`/api/v1/rules/${ruleId}/shadow`).set('Authorization', `Bearer ${tenant.adminKey}`);

  beforeAll(async () => {
    // The registry asks the gateway for shadow reports (VERDICT_URL): the gateway's port is reserved first.
    stack = await startStack({ verdict: { stablePort: true } });
    tenant = await createVerdictTenant(stack, 'shadow-e2e');
    rules = registryApi(stack, tenant.adminKey);
    agent = verdictApi(stack, tenant.agent.key, tenant.id);
    scopeId = await rules.scope('payments', { region: 'eu' });
    blocking = await rules.rule(scopeId, blockingBody('shadow'));
    // Agrees with the tenant default on every transfer it fires for: never an entry.
    agreeing = await rules.rule(scopeId, {
      directive: 'Small transfers are fine',
      severity: 'ALLOW',
      conditions: [{ field: 'amount', op: 'lte', value: 10000 }],
      mode: 'shadow',
    });
  });
  afterAll(() => stack?.stop());

  it('never blocks with a shadow rule that would, and records the disagreement in the hashed, signed record', async () => {
    const res = await agent.check(transfer(50_000)).expect(200);
    expect(res.body).toMatchObject({ verdict: 'allowed', dominating_rule_id: null, cited_rule_ids: [] });
    const record = (await agent.consultation(res.body.consultation_id).expect(200)).body;
    expectConforms(await agent.consultation(res.body.consultation_id), 'get', '/{tenant_id}/v1/consultations/{consultation_id}');
    expect(record.shadow).toEqual([{ rule_id: blocking.id, rule_version_id: blocking.current_version_id, would_be: 'blocked' }]);
    expect(record.precedence_trace).toEqual([]);
    expect(record.cited_rule_version_ids).toEqual([]);
    // The SDK's verifier recomputes normative_hash over the record, shadow included, and checks the signature.
    const jwks = (await request(stack.verdict.url).get(`/v1/tenants/${tenant.id}/jwks`).expect(200)).body;
    const report = await verifyConsultation(record, { jwks });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.valid).toBe(true);
    // Changing the shadow member breaks the hash.
    const tampered = await verifyConsultation({ ...record, shadow: [] }, { jwks });
    expect(tampered.valid).toBe(false);
  });

  it('leaves no entry when a shadow rule agrees with the verdict', async () => {
    const res = await agent.check(transfer(5)).expect(200);
    expect(res.body.verdict).toBe('allowed');
    const record = (await agent.consultation(res.body.consultation_id).expect(200)).body;
    expect(record).not.toHaveProperty('shadow');
    expect((await shadowReport(agreeing.id).expect(200)).body).toEqual({
      rule_id: agreeing.id,
      mode: 'shadow',
      disagreements: 0,
      by_version: [],
    });
  });

  it('counts the disagreement in /metrics', async () => {
    const res = await request(stack.verdict.url).get('/metrics').expect(200);
    const line = res.text
      .split('\n')
      .find((l) => l.startsWith('arbiter_verdict_shadow_disagreements_total{') && l.includes(`rule_id="${blocking.id}"`));
    expect(line).toMatch(/would_be="blocked"/);
    expect(line).toMatch(/ 1$/);
    expect(res.text).not.toContain(`rule_id="${agreeing.id}"`);
  });

  it('reports the count from the registry, then blocks once a PUT with mode enforce promotes the rule', async () => {
    const before = await shadowReport(blocking.id).expect(200);
    expect(before.body).toEqual({
      rule_id: blocking.id,
      mode: 'shadow',
      disagreements: 1,
      by_version: [{ rule_version_id: blocking.current_version_id, disagreements: 1, last_at: expect.any(String) }],
    });

    const promoted = await rules.updateRule(scopeId, blocking.id, blockingBody('enforce'));
    expect(promoted.current_version_id).not.toBe(blocking.current_version_id);
    // The gateway sees the new version within moments (docs/verdicts.md "The tenant snapshot"); until then
    // a check is still allowed and still disagrees with the shadow version.
    let stillShadow = 0;
    const blocked = await eventually(
      'the enforced rule to block',
      async () => {
        const res = await agent.check(transfer(50_000)).expect(200);
        if (res.body.verdict !== 'blocked') {
          stillShadow++;
          throw new Error(`still ${res.body.verdict}`);
        }
        return res.body;
      },
      { timeoutMs: 10_000 },
    );
    expect(blocked).toMatchObject({ verdict: 'blocked', dominating_rule_id: blocking.id });
    const record = (await agent.consultation(blocked.consultation_id).expect(200)).body;
    expect(record).not.toHaveProperty('shadow');
    expect(record.cited_rule_version_ids).toEqual([promoted.current_version_id]);

    const after = await shadowReport(blocking.id).expect(200);
    expect(after.body).toEqual({
      rule_id: blocking.id,
      mode: 'enforce',
      disagreements: 1 + stillShadow,
      by_version: [{ rule_version_id: blocking.current_version_id, disagreements: 1 + stillShadow, last_at: expect.any(String) }],
    });
  });

  it("answers 404 for a rule the caller cannot see, and the verdict's internal route needs the token", async () => {
    await shadowReport('rul-000000000000000000000000').expect(404);
    await request(stack.verdict.url).get(`/internal/v1/tenants/${tenant.id}/rules/${blocking.id}/shadow`).expect(401);
    const internal = await request(stack.verdict.url)
      .get(`/internal/v1/tenants/${tenant.id}/rules/${blocking.id}/shadow`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .expect(200);
    expect(internal.body).toMatchObject({ tenant_id: tenant.id, rule_id: blocking.id });
    await request(stack.verdict.url)
      .get(`/internal/v1/tenants/not-a-tenant/rules/${blocking.id}/shadow`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .expect(400);
  });

  it('shows mode on a shadow rule version only: an enforced version reads as it always did', async () => {
    const versions = (
      await request(stack.registry.url)
        .get(`/api/v1/scopes/${scopeId}/rules/${blocking.id}/versions`)
        .set('Authorization', `Bearer ${tenant.adminKey}`)
        .expect(200)
    ).body.items;
    const [shadowVersion, enforcedVersion] = await Promise.all(versions.map((v: { id: string }) => agent.ruleVersion(v.id).expect(200)));
    expectConforms(shadowVersion, 'get', '/v1/rule-versions/{rule_version_id}');
    expect(shadowVersion.body.mode).toBe('shadow');
    expect(enforcedVersion.body).not.toHaveProperty('mode');
  });
});
