import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

/**
 * The gateway's snapshot of the registry (README.md "Architecture"): checks on a fresh snapshot make no
 * network call to the registry, and a change in the registry is seen within a second. The gateway
 * reaches the registry through a proxy that counts requests and can play dead.
 */
describe('tenant snapshots', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scopeId: string;
  let rule: { id: string };

  const deploy = { action: 'infra.deploy', resource: 'svc:api', scope: { region: 'eu' } };

  beforeAll(async () => {
    // A long poll interval: pub/sub alone must carry changes, and no poll muddies the request count.
    stack = await startStack({ verdict: { registryProxy: true, env: { SNAPSHOT_POLL_MS: '600000' } } });
    t = await createVerdictTenant(stack, 'snap-a');
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope('eu', { region: 'eu' });
    rule = await reg.rule(scopeId, { directive: 'deploys are fine', severity: 'ALLOW', applies_to: { actions: ['infra.deploy'] } });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  it('answers checks on a fresh snapshot without any request to the registry', async () => {
    await agent().check(deploy).expect(200); // loads the snapshot and the key's identity
    const proxy = stack.proxy!;
    proxy.requests.length = 0;
    for (let i = 0; i < 20; i++) expect((await agent().check(deploy).expect(200)).body.verdict).toBe('allowed');
    expect(proxy.requests).toEqual([]);
  });

  it('keeps answering from memory while the registry is unreachable', async () => {
    await agent().check(deploy).expect(200);
    stack.proxy!.down = true;
    try {
      const res = await agent().check(deploy).expect(200);
      expect(res.body).toMatchObject({ verdict: 'allowed', consultation_id: expect.any(String) });
      // A tenant the gateway has never loaded cannot be answered meanwhile.
      const cold = await createVerdictTenant(stack, 'snap-cold');
      const refused = await verdictApi(stack, cold.agent.key, cold.id).check(deploy);
      expect(refused.status).toBe(503);
      expect(['registry_unavailable', 'auth_unavailable']).toContain(refused.body.code);
    } finally {
      stack.proxy!.down = false;
    }
  });

  it('answers 503 policy_unavailable, with Retry-After, when the registry state cannot be evaluated', async () => {
    const cold = await createVerdictTenant(stack, 'snap-broken');
    const reg = registryApi(stack, cold.adminKey);
    const scope = await reg.scope('eu', { region: 'eu' });
    await reg.rule(scope, { directive: 'deploys are fine', severity: 'ALLOW', applies_to: { actions: ['infra.deploy'] } });
    // The state the gateway loads names a scope it does not hold: the policy cannot be compiled (fail closed).
    stack.proxy!.rewrite = (path, body) => {
      if (!path.endsWith(`/tenants/${cold.id}/state`)) return body;
      const state = JSON.parse(body) as { rules: Array<{ scope_id: string }> };
      for (const r of state.rules) r.scope_id = 'scp-missing';
      return JSON.stringify(state);
    };
    try {
      const res = await verdictApi(stack, cold.agent.key, cold.id).check(deploy);
      expect([res.status, res.body.code, res.headers['retry-after']]).toEqual([503, 'policy_unavailable', '5']);
      // Like every 5xx, the answer names only an error id; the log holds the reason.
      expect(res.body.details).toEqual({ error_id: expect.any(String) });
    } finally {
      stack.proxy!.rewrite = null;
    }
  });

  it('sees a rule update within one second', async () => {
    await agent().check(deploy).expect(200);
    await registryApi(stack, t.adminKey).updateRule(scopeId, rule.id, {
      directive: 'deploy freeze',
      severity: 'MANDATORY',
      applies_to: { actions: ['infra.deploy'] },
    });
    const res = await eventually(
      'the rule in the snapshot',
      async () => {
        const r = await agent().check(deploy).expect(200);
        expect(r.body.verdict).toBe('blocked');
        return r;
      },
      { timeoutMs: 1_000 },
    );
    expect(res.body.dominating_rule_id).toBe(rule.id);
  });

  it('sees new rules, archived rules and changed tenant settings', async () => {
    const reg = registryApi(stack, t.adminKey);
    const audit = await reg.rule(scopeId, { directive: 'audit reads', severity: 'ADVISORY', applies_to: { actions: ['data.read'] } });
    await eventually(
      'the new rule in the snapshot',
      async () =>
        (
          await agent()
            .check({ action: 'data.read', resource: 'd', scope: { region: 'eu' } })
            .expect(200)
        ).body.verdict,
      { until: (v) => v === 'observe', timeoutMs: 1_000 },
    );
    await reg.archiveRule(scopeId, audit.id);
    await eventually(
      'the archived rule gone from the snapshot',
      async () =>
        (
          await agent()
            .check({ action: 'data.read', resource: 'd', scope: { region: 'eu' } })
            .expect(200)
        ).body.verdict,
      { until: (v) => v === 'allowed', timeoutMs: 1_000 },
    );
    await reg.patchTenant(t.id, {
      settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] }, team: {} } }, default_verdict: 'observe' },
    });
    await eventually(
      'the new tenant settings in the snapshot',
      async () => {
        const res = await agent()
          .check({ action: 'nothing.here', resource: 'x', scope: { team: 'payments' } })
          .expect(200);
        expect(res.body.verdict).toBe('observe');
        return true;
      },
      { timeoutMs: 1_000 },
    );
  });
});
