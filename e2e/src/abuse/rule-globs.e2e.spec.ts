// Abuse case (docs/threat-model.md "Rule authors and the shared gateway"): rule globs that could stall the gateway. A glob used to compile to a
// backtracking RegExp: `*a*a*b` against a 2,000-character resource took seconds, `*a*a*a*a*a*b` hours,
// and every other tenant's check waited behind it. Now globs match in linear time, a rule's content is
// bounded (docs/verdicts.md "Rule limits"), and every evaluation and simulation has a budget past which
// the request fails closed with 503 evaluation_budget_exceeded (docs/verdicts.md "Evaluation budget").
// Outcomes are asserted, never durations.
import request from 'supertest';
import { createPrincipalWithKey } from '../../../apps/registry/test/harness';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from '../verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from '../stack';

jest.setTimeout(180_000);

const LONG_A = 'a'.repeat(2000);

/** A rules key (manage_rules, nothing else) of the tenant, and a POST of a rule with it. */
async function rulesKey(stack: Stack, t: VerdictTenant): Promise<(scopeId: string, body: object) => request.Test> {
  const { key } = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['manage_rules', 'read'] });
  return (scopeId, body) =>
    request(stack.registry.url).post(`/api/v1/scopes/${scopeId}/rules`).set('Authorization', `Bearer ${key}`).send(body);
}

/**
 * The costliest globs the limits accept, as far as this test cares: one piece of 434 characters with
 * 62 `?` between two `*` (64 wildcards), which no string of `a` matches, so each is scanned to the end.
 */
const heavyGlobs = (rule: number, count = 100): string[] =>
  Array.from({ length: count }, (_, i) => `*${'aaaaaa?'.repeat(62)}c${rule}x${i}*`);

describe('abuse: rule globs cannot stall the gateway', () => {
  describe('with the default budgets', () => {
    let stack: Stack;
    let t: VerdictTenant;
    let scopeId: string;
    let post: (scopeId: string, body: object) => request.Test;

    beforeAll(async () => {
      stack = await startStack({ verdict: { registryProxy: true } });
      t = await createVerdictTenant(stack, 'globs', {});
      scopeId = await registryApi(stack, t.adminKey).scope('files', {});
      post = await rulesKey(stack, t);
    });
    afterAll(() => stack?.stop());

    it('accepts `*a*a*a*a*a*b` from a rules key, and a check against 2,000 characters answers with the right verdict', async () => {
      await post(scopeId, {
        directive: 'no b files',
        severity: 'MANDATORY',
        applies_to: { actions: ['files.read'], resources: ['*a*a*a*a*a*b'] },
      }).expect(201);
      const agent = verdictApi(stack, t.agent.key, t.id);
      // The backtracking matcher never finished this one; the glob does not match (no b), so the rule does not apply.
      const miss = await agent.check({ action: 'files.read', resource: LONG_A, scope: {} }).expect(200);
      expect(miss.body.verdict).toBe('allowed');
      const hit = await agent.check({ action: 'files.read', resource: `${LONG_A.slice(1)}b`, scope: {} }).expect(200);
      expect(hit.body.verdict).toBe('blocked');
    });

    it('answers normally with the costliest accepted globs and a 2,000-character resource', async () => {
      await post(scopeId, {
        directive: 'heavy',
        severity: 'MANDATORY',
        applies_to: { actions: ['files.write'], resources: heavyGlobs(0) },
      }).expect(201);
      const agent = verdictApi(stack, t.agent.key, t.id);
      // Once the gateway holds the new rule (the registry announces it), it is listed as not applicable.
      await eventually(
        'the long-glob rule in the snapshot',
        async () => {
          const res = await agent.check({ action: 'files.write', resource: LONG_A, scope: {} }).expect(200);
          expect(res.body.verdict).toBe('allowed');
          const trace = (await agent.consultation(res.body.consultation_id).expect(200)).body.precedence_trace as Array<{ reason: string }>;
          expect(trace.map((e) => e.reason)).toEqual(['not_applicable']);
          return true;
        },
        { timeoutMs: 5_000 },
      );
    });

    it('checks an email format on a 600,000-character value in one pass (the expression used backtracked for minutes)', async () => {
      await post(scopeId, {
        directive: 'mail needs a contact',
        severity: 'MANDATORY',
        applies_to: { actions: ['mail.send'] },
        requires: [{ field: 'contact', type: 'string', format: 'email' }],
      }).expect(201);
      const agent = verdictApi(stack, t.agent.key, t.id);
      const res = await eventually(
        'the format rule in the snapshot',
        () =>
          agent.check({ action: 'mail.send', resource: 'x', scope: {}, parameters: { contact: `a@${'.'.repeat(600_000)} ` } }).expect(422),
        { timeoutMs: 5_000 },
      );
      expect(res.body.details.required_context).toEqual([expect.objectContaining({ field: 'contact', problems: ['bad_format'] })]);
      const ok = await agent
        .check({ action: 'mail.send', resource: 'x', scope: {}, parameters: { contact: 'ops@example.com' } })
        .expect(200);
      expect(ok.body.verdict).toBe('blocked');
    });

    it('refuses a glob over the limits with 400 naming the field, and accepts one just inside them', async () => {
      const over = await post(scopeId, { directive: 'over', severity: 'MANDATORY', applies_to: { resources: ['*?'.repeat(33)] } }).expect(
        400,
      );
      expect(over.body).toEqual({
        detail: expect.stringContaining('applies_to.resources[0]: a glob has at most 64 wildcards (* and ? together); this one has 66'),
      });
      await post(scopeId, {
        directive: 'inside',
        severity: 'MANDATORY',
        applies_to: { actions: ['none.*'], resources: ['*?'.repeat(32)] },
      }).expect(201);
    });

    it('refuses to evaluate a stored rule over the limits: the tenant answers 503 policy_unavailable, never a verdict', async () => {
      const old = await createVerdictTenant(stack, 'globs-legacy', {});
      await registryApi(stack, old.adminKey).rule(await registryApi(stack, old.adminKey).scope('all', {}), {
        directive: 'stored before the limits',
        severity: 'ALLOW',
        applies_to: { actions: ['files.read'], resources: ['*'] },
      });
      // What a registry without the limits could have stored: a glob of 65 wildcards.
      stack.proxy!.rewrite = (path, body) => {
        if (!path.endsWith(`/tenants/${old.id}/state`)) return body;
        const state = JSON.parse(body) as { rules: Array<{ applies_to: { resources: string[] } }> };
        for (const r of state.rules) r.applies_to.resources = ['*?'.repeat(32) + '?'];
        return JSON.stringify(state);
      };
      try {
        const res = await verdictApi(stack, old.agent.key, old.id).check({ action: 'files.read', resource: 'x', scope: {} });
        expect([res.status, res.body.code]).toEqual([503, 'policy_unavailable']);
        expect((await verdictApi(stack, old.agent.key, old.id).consultations().expect(200)).body.items).toEqual([]);
      } finally {
        stack.proxy!.rewrite = null;
      }
    });
  });

  describe('with a small evaluation budget', () => {
    let stack: Stack;
    let heavy: VerdictTenant;
    let light: VerdictTenant;
    let lightScope: string;

    beforeAll(async () => {
      // 10 ms per evaluation, 1 ms of engine time per simulation: far below what the heavy tenant's rules
      // cost on a 2,000-character resource (20 rules of 100 globs scanned to the end), far above a plain check.
      stack = await startStack({ verdict: { env: { EVALUATION_BUDGET_MS: '10', SIMULATION_BUDGET_MS: '1' } } });
      [heavy, light] = await Promise.all([createVerdictTenant(stack, 'budget-heavy', {}), createVerdictTenant(stack, 'budget-light', {})]);
      const heavyScope = await registryApi(stack, heavy.adminKey).scope('files', {});
      const post = await rulesKey(stack, heavy);
      for (let r = 0; r < 20; r++) {
        await post(heavyScope, {
          directive: `heavy ${r}`,
          severity: 'MANDATORY',
          applies_to: { actions: ['files.read'], resources: heavyGlobs(r) },
        }).expect(201);
      }
      // An ALLOW rule below them: were the heavy rules skipped, the answer would be a signed allowed.
      await post(heavyScope, { directive: 'reads are fine', severity: 'ALLOW', applies_to: { actions: ['files.read'] } }).expect(201);
      lightScope = await registryApi(stack, light.adminKey).scope('files', {});
      await registryApi(stack, light.adminKey).rule(lightScope, {
        directive: 'no secrets',
        severity: 'MANDATORY',
        applies_to: { actions: ['files.read'], resources: ['secret/*'] },
      });
    });
    afterAll(() => stack?.stop());

    it('answers 503 evaluation_budget_exceeded, never a signed verdict, while another tenant on the gateway is answered', async () => {
      const heavyAgent = verdictApi(stack, heavy.agent.key, heavy.id);
      const lightAgent = verdictApi(stack, light.agent.key, light.id);
      const [slow, other, otherBlocked] = await Promise.all([
        heavyAgent.check({ action: 'files.read', resource: LONG_A, scope: {} }),
        lightAgent.check({ action: 'files.read', resource: 'public/readme', scope: {} }),
        lightAgent.check({ action: 'files.read', resource: 'secret/keys', scope: {} }),
      ]);
      expect([slow.status, slow.body.code]).toEqual([503, 'evaluation_budget_exceeded']);
      expect(slow.body.message).toMatch(/evaluation budget, 10 ms/);
      expect(slow.body.verdict).toBeUndefined();
      expect(slow.headers['x-consultation-id']).toBeUndefined();
      expect([other.status, other.body.verdict]).toEqual([200, 'allowed']);
      expect([otherBlocked.status, otherBlocked.body.verdict]).toEqual([200, 'blocked']);
      // Nothing was recorded (so nothing was signed) for the refused check.
      expect((await heavyAgent.consultations().expect(200)).body.items).toEqual([]);
    });

    it('refuses resolve the same way', async () => {
      const res = await verdictApi(stack, heavy.agent.key, heavy.id).resolve({
        action: 'files.read',
        resource: LONG_A,
        scope: {},
        context: {},
      });
      expect([res.status, res.body.code]).toEqual([503, 'evaluation_budget_exceeded']);
    });

    it('counts each refusal on /metrics by operation and budget', async () => {
      await verdictApi(stack, heavy.agent.key, heavy.id).check({ action: 'files.read', resource: LONG_A, scope: {} }).expect(503);
      const text = (await request(stack.verdict.url).get('/metrics').expect(200)).text;
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('arbiter_evaluation_budget_exceeded_total{') &&
            l.includes('operation="check"') &&
            l.includes('budget="evaluation"'),
        );
      expect(line).toBeDefined();
      expect(Number(line!.split(' ').pop())).toBeGreaterThanOrEqual(2);
    });

    it('ends a simulation past its budget with 503 evaluation_budget_exceeded (simulation budget)', async () => {
      const lightAgent = verdictApi(stack, light.agent.key, light.id);
      for (let i = 0; i < 5; i++)
        await lightAgent.check({ action: 'files.read', resource: `${LONG_A.slice(10)}${i}`, scope: {} }).expect(200);
      // The proposed rule makes each replay cost milliseconds: more than the simulation's 1 ms, less than an evaluation's 10.
      const res = await verdictApi(stack, light.adminKey, light.id).post(`/${light.id}/v1/simulations`, {
        changes: [
          {
            op: 'create',
            rule: {
              scope_id: lightScope,
              directive: 'heavy',
              severity: 'MANDATORY',
              applies_to: { actions: ['files.read'], resources: heavyGlobs(99, 50) },
            },
          },
        ],
      });
      expect([res.status, res.body.code]).toEqual([503, 'evaluation_budget_exceeded']);
      expect(res.body.message).toMatch(/simulation budget, 1 ms/);
    });
  });
});
