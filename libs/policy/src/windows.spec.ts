import { compilePolicy } from './compile';
import { PolicyCompileError } from './errors';
import { ruleProblems } from './validate';
import { isParameterPath, limitProblems } from './window-rules';
import { evaluate, proceeds, windowPlan } from './evaluate';
import type {
  CompleteEvaluation,
  EngineRule,
  EvaluationRequest,
  EvaluationResult,
  InsufficientContext,
  IncompleteEvaluation,
} from './types';
import { WindowLedger } from './window-ledger';
import { limitEntries, needsThatFit, windowStates } from './window-states';
import type { WindowStates } from './window-rules';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}

const request = (extra: Partial<EvaluationRequest> = {}): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.refund',
  resource: 'order:o-1',
  scope: {},
  parameters: { amount: 90, order_id: 'o-1' },
  principal: 'agn-1',
  ...extra,
});

const complete = (r: EvaluationResult): CompleteEvaluation => {
  expect(r.status).toBe('complete');
  return r as CompleteEvaluation;
};
const entry = (r: EvaluationResult, id: string) => r.precedence_trace.find((e) => e.rule_id === `rul-${id}`);
const states = (
  limits: [string, WindowStates['limits'] extends ReadonlyMap<string, infer S> ? S : never][],
  priors: [string, boolean | 'unavailable'][] = [],
): WindowStates => ({
  limits: new Map(limits.map(([id, s]) => [`rul-${id}`, s])),
  priors: new Map(priors.map(([id, s]) => [`rul-${id}`, s])),
});

const budget = rule('budget', { limit: { sum: 'parameters.amount', max: 100, window: '1h', by: ['principal'] } });
/** The window `budget` plans for request(). */
const budgetNeed = {
  rule_id: 'rul-budget',
  rule_version_id: 'rv-budget',
  key: '{"principal":"agn-1"}',
  window: '1h',
  window_ms: 3_600_000,
  amount: 90,
  max: 100,
};
const rate = rule('rate', { severity: 'ADVISORY', limit: { count: true, max: 2, window: '1h', by: [] } });
const review = rule('review', {
  severity: 'REQUIRES_APPROVAL',
  applies_to: { actions: ['payments.refund'] },
  requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
});

describe('rules that remember', () => {
  it('plans the windows of the rules whose conditions fire, with canonical keys', () => {
    const policy = compilePolicy([budget, rate, review]);
    expect(policy.hasWindows).toBe(true);
    const plan = windowPlan(policy, request(), NOW);
    expect(plan.limits).toEqual([
      budgetNeed,
      { rule_id: 'rul-rate', rule_version_id: 'rv-rate', key: '{}', window: '1h', window_ms: 3_600_000, amount: 1, max: 2 },
    ]);
    expect(plan.priors).toEqual([
      {
        rule_id: 'rul-review',
        rule_version_id: 'rv-review',
        action: 'orders.review',
        key: '{"parameters.order_id":"o-1"}',
        within: '1h',
        within_ms: 3_600_000,
      },
    ]);
    expect(plan.marks).toEqual([]);
    expect(windowPlan(policy, request({ action: 'orders.review' }), NOW).marks).toEqual([
      { action: 'orders.review', key: '{"parameters.order_id":"o-1"}' },
    ]);
  });

  it('has no windows and an empty plan without such rules', () => {
    const policy = compilePolicy([rule('plain')]);
    expect(policy.hasWindows).toBe(false);
    expect(windowPlan(policy, request(), NOW)).toEqual({ limits: [], priors: [], marks: [] });
  });

  it('fires a limit only past max, and fails closed without states', () => {
    const policy = compilePolicy([budget]);
    const within = complete(evaluate(policy, request(), NOW, null, null, states([['budget', { used: 10 }]])));
    expect(within.verdict).toBe('allowed');
    expect(entry(within, 'budget')).toMatchObject({ reason: 'condition_false', limit_state: 'within' });
    const over = complete(evaluate(policy, request(), NOW, null, null, states([['budget', { used: 11 }]])));
    expect(over.verdict).toBe('blocked');
    expect(entry(over, 'budget')).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    const fits = complete(evaluate(policy, request(), NOW, null, null, states([['budget', 'fits']])));
    expect(entry(fits, 'budget')?.limit_state).toBe('within');
    for (const s of [null, states([]), states([['budget', 'unavailable']])]) {
      const r = complete(evaluate(policy, request(), NOW, null, null, s));
      expect(r.verdict).toBe('blocked');
      expect(entry(r, 'budget')).toMatchObject({ reason: 'fires', limit_state: 'limit_unavailable' });
    }
  });

  it('puts limit_state between decided_by and missing_fields', () => {
    const r = complete(evaluate(compilePolicy([budget]), request(), NOW, null, null, null));
    expect(Object.keys(r.precedence_trace[0]).filter((k) => r.precedence_trace[0][k as 'reason'] !== undefined)).toEqual([
      'decided_by',
      'limit_state',
      'reason',
      'rule_id',
      'rule_version_id',
      'scope_match',
      'severity',
    ]);
  });

  it('works with the ledger end to end', () => {
    const policy = compilePolicy([budget]);
    const ledger = new WindowLedger();
    const go = (amount: number, at: number): string => {
      const req = request({ parameters: { amount } });
      const plan = windowPlan(policy, req, at);
      const first = complete(evaluate(policy, req, at, null, null, windowStates(plan, 'fits', [])));
      if (!proceeds(first)) return first.verdict;
      const took = ledger.take(`c-${at}`, plan.limits, plan.marks, at);
      if (took.taken) return first.verdict;
      return complete(evaluate(policy, req, at, null, null, windowStates(plan, took.used_before, []))).verdict;
    };
    expect(go(60, NOW)).toBe('allowed');
    expect(go(40, NOW + 1)).toBe('allowed');
    expect(go(1, NOW + 2)).toBe('blocked');
    expect(go(1, NOW + 3_600_000)).toBe('allowed');
  });

  it('asks for a missing amount in check and resolve', () => {
    const policy = compilePolicy([budget]);
    const r = evaluate(policy, request({ parameters: {} }), NOW, null, null, null) as InsufficientContext;
    expect(r.status).toBe('insufficient_context');
    expect(r.missing_fields.map((f) => [f.field, f.type, f.min, f.problems])).toEqual([['amount', 'number', 0, ['absent']]]);
    const neg = evaluate(policy, request({ parameters: { amount: -5 } }), NOW, null, null, null) as InsufficientContext;
    expect(neg.missing_fields[0].problems).toEqual(['below_min']);
    const res = evaluate(
      policy,
      request({ mode: 'resolve', parameters: null, context: {} }),
      NOW,
      null,
      null,
      null,
    ) as IncompleteEvaluation;
    expect(res.status).toBe('incomplete');
    expect(res.required_context.map((f) => f.field)).toEqual(['amount']);
  });
});

describe('key paths', () => {
  const keyed = (by: string[]) => compilePolicy([rule('k', { limit: { count: true, max: 5, window: '1h', by } })]);
  const keyOf = (by: string[], req: Partial<EvaluationRequest> = {}) => windowPlan(keyed(by), request(req), NOW).limits[0]?.key;

  it('reads principal, on_behalf_of (null when absent), resource and parameters into canonical JSON', () => {
    expect(keyOf(['principal'])).toBe('{"principal":"agn-1"}');
    expect(keyOf(['on_behalf_of'])).toBe('{"on_behalf_of":null}');
    expect(keyOf(['on_behalf_of'], { on_behalf_of: 'hum-1' })).toBe('{"on_behalf_of":"hum-1"}');
    expect(keyOf(['resource'])).toBe('{"resource":"order:o-1"}');
    expect(keyOf(['resource', 'parameters.order_id', 'principal'])).toBe(
      '{"parameters.order_id":"o-1","principal":"agn-1","resource":"order:o-1"}',
    );
    expect(keyOf(['principal'], { principal: undefined })).toBe('{"principal":null}');
  });

  it('reads a parameter key from a context Fact in check, and from the Facts in resolve', () => {
    const fact = { value: 'o-9', source: 'crm' };
    expect(keyOf(['parameters.order_id'], { parameters: {}, context: { order_id: fact } })).toBe('{"parameters.order_id":"o-9"}');
    expect(keyOf(['parameters.order_id'], { mode: 'resolve', parameters: null, context: { order_id: fact } })).toBe(
      '{"parameters.order_id":"o-9"}',
    );
  });

  it('keys a value by what windowKeyValue makes of it, so a sensitive value never enters a window key', () => {
    const windowKeyValue = (path: string, v: unknown) => (path === 'parameters.order_id' ? { $digest: `d(${String(v)})` } : v);
    expect(keyOf(['parameters.order_id', 'principal'], { windowKeyValue })).toBe(
      '{"parameters.order_id":{"$digest":"d(o-1)"},"principal":"agn-1"}',
    );
  });

  it('makes a missing or non-scalar key value a gap', () => {
    const missing = evaluate(keyed(['parameters.customer']), request(), NOW, null, null, null) as InsufficientContext;
    expect(missing.missing_fields.map((f) => [f.field, f.problems])).toEqual([['customer', ['absent']]]);
    const object = evaluate(keyed(['parameters.order_id']), request({ parameters: { order_id: { a: 1 } } }), NOW) as InsufficientContext;
    expect(object.missing_fields.map((f) => [f.field, f.problems])).toEqual([['order_id', ['wrong_type']]]);
    expect(windowPlan(keyed(['parameters.customer']), request(), NOW).limits).toEqual([]);
    const long = evaluate(
      keyed(['parameters.order_id']),
      request({ parameters: { order_id: 'o'.repeat(257) } }),
      NOW,
    ) as InsufficientContext;
    expect(long.missing_fields.map((f) => [f.field, f.problems])).toEqual([['order_id', ['wrong_type']]]);
    expect(long.missing_fields[0].reason).toContain('a string of at most 256 characters');
    expect(keyOf(['parameters.order_id'], { parameters: { order_id: 'o'.repeat(256) } })).toBe(
      `{"parameters.order_id":"${'o'.repeat(256)}"}`,
    );
  });

  it('refuses a non-number amount as wrong_type', () => {
    const r = evaluate(compilePolicy([budget]), request({ parameters: { amount: '12' } }), NOW) as InsufficientContext;
    expect(r.missing_fields[0].problems).toEqual(['wrong_type']);
  });

  it('weighs a remembering rule more in the evaluation budget, per key path', () => {
    const weight = (by: string[]) => keyed(by).rules[0].weight;
    expect(weight(['principal', 'resource'])).toBe(weight([]) + 2);
    expect(compilePolicy([rule('plain')]).rules[0].weight).toBeLessThan(weight([]));
  });
});

describe('which rules are planned', () => {
  it('leaves out a rule whose conditions are false, and it gets no limit_state', () => {
    const r = rule('big', {
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      limit: { count: true, max: 1, window: '1h', by: [] },
    });
    const policy = compilePolicy([r]);
    expect(windowPlan(policy, request(), NOW).limits).toEqual([]);
    const result = complete(evaluate(policy, request(), NOW, null, null, null));
    expect(entry(result, 'big')).toEqual(expect.objectContaining({ reason: 'condition_false' }));
    expect(entry(result, 'big')?.limit_state).toBeUndefined();
  });

  it('plans a limit an override or a one-shot approval neutralises as forced: it counts, it does not decide', () => {
    const override = { id: 'ovr-1', target_rule_ids: ['rul-budget'], applies_to_scope: {}, expires_at: null, type: 'temporary' };
    const policy = compilePolicy([budget], [override]);
    const forced = { ...budgetNeed, forced: true };
    expect(windowPlan(policy, request(), NOW).limits).toEqual([forced]);
    // Whatever the window holds (no state at all, or full), the neutralised rule stays overridden.
    for (const s of [null, states([['budget', { used: 100 }]]), states([['budget', 'unavailable']])]) {
      const r = complete(evaluate(policy, request(), NOW, null, null, s));
      expect(r.verdict).toBe('allowed');
      expect(entry(r, 'budget')).toMatchObject({ reason: 'overridden', overridden_by: 'ovr-1' });
      expect(entry(r, 'budget')?.limit_state).toBeUndefined();
    }
    const approval = { approvalId: 'apr-1', ruleVersionIds: new Set(['rv-budget']) };
    const plain = compilePolicy([budget]);
    expect(windowPlan(plain, request(), NOW, approval).limits).toEqual([forced]);
    expect(complete(evaluate(plain, request(), NOW, approval, null, null)).verdict).toBe('allowed');
    // Without the neutralisation the same window is an ordinary need.
    expect(windowPlan(plain, request(), NOW).limits).toEqual([budgetNeed]);
    expect(windowPlan(plain, request(), NOW).limits[0]).not.toHaveProperty('forced');
  });

  it('leaves out a neutralised rule whose conditions do not match and a neutralised requires_prior; asks for the fields a neutralised budget counts with', () => {
    const big = rule('big', {
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      limit: { sum: 'parameters.amount', max: 5000, window: '1h', by: ['parameters.order_id'] },
    });
    const overrides = ['rul-big', 'rul-review'].map((id, i) => ({
      id: `ovr-${i}`,
      target_rule_ids: [id],
      applies_to_scope: {},
      expires_at: null,
      type: 'temporary',
    }));
    const policy = compilePolicy([big, review], overrides);
    expect(windowPlan(policy, request(), NOW)).toMatchObject({ limits: [], priors: [] });
    expect(windowPlan(policy, request({ parameters: { amount: 2000, order_id: 'o-1' } }), NOW).limits).toEqual([
      expect.objectContaining({ rule_id: 'rul-big', amount: 2000, forced: true }),
    ]);
    // A key field or an amount the lifted rule lacks, a negative or a non-numeric amount: the operation cannot be
    // counted, so it is not let through uncounted while the override lasts. Check names the field (the trace keeps
    // the rule overridden), resolve asks for it.
    for (const [parameters, field, problem] of [
      [{ amount: 2000 }, 'order_id', 'absent'],
      [{ amount: -2000, order_id: 'o-1' }, 'amount', 'below_min'],
      [{ amount: '2000', order_id: 'o-1' }, 'amount', 'wrong_type'],
      [{ amount: { value: 2000 }, order_id: 'o-1' }, 'amount', 'wrong_type'],
      [{ order_id: 'o-1' }, 'amount', 'absent'],
    ] as const) {
      const r = evaluate(policy, request({ parameters }), NOW, null, null, null) as InsufficientContext;
      expect(r.status).toBe('insufficient_context');
      expect(r.missing_fields.map((f) => [f.field, f.problems])).toEqual([[field, [problem]]]);
      expect(r.precedence_trace.find((e) => e.rule_id === 'rul-big')).toMatchObject({
        reason: 'overridden',
        overridden_by: 'ovr-0',
        missing_fields: [field],
      });
      const context = Object.fromEntries(Object.entries(parameters).map(([k, value]) => [k, { value, source: 'agent' }]));
      const asked = evaluate(
        policy,
        request({ mode: 'resolve', parameters: null, context }),
        NOW,
        null,
        null,
        null,
      ) as IncompleteEvaluation;
      expect([asked.status, asked.required_context.map((f) => f.field)]).toEqual(['incomplete', [field]]);
    }
    // Its conditions false: it does not apply and counts nothing. Check wants every field a candidate names, as for a
    // rule that decides; resolve asks nothing once the conditions are false on what is there.
    const small = request({ parameters: { amount: 10, order_id: 'o-1' } });
    expect([complete(evaluate(policy, small, NOW, null, null, null)).verdict, windowPlan(policy, small, NOW).limits]).toEqual([
      'allowed',
      [],
    ]);
    const smallResolve = request({ mode: 'resolve', parameters: null, context: { amount: { value: 10, source: 'agent' } } });
    expect(complete(evaluate(policy, smallResolve, NOW, null, null, null)).verdict).toBe('allowed');
    // The marks an operation leaves do not depend on neutralisations.
    const reviewed = request({ action: 'orders.review' });
    expect(windowPlan(policy, reviewed, NOW).marks).toEqual(windowPlan(compilePolicy([big, review]), reviewed, NOW).marks);
  });

  it('leaves out a rule for another action, scope or resource', () => {
    const scoped = rule('s', {
      selector: { region: 'eu' },
      applies_to: { actions: ['payments.*'], resources: ['order:*'] },
      limit: { count: true, max: 1, window: '1h', by: [] },
    });
    const policy = compilePolicy([scoped]);
    expect(windowPlan(policy, request({ scope: { region: 'eu' } }), NOW).limits).toHaveLength(1);
    expect(windowPlan(policy, request({ scope: { region: 'us' } }), NOW).limits).toEqual([]);
    expect(windowPlan(policy, request({ scope: { region: 'eu' }, action: 'mail.send' }), NOW).limits).toEqual([]);
    expect(windowPlan(policy, request({ scope: { region: 'eu' }, resource: 'user:1' }), NOW).limits).toEqual([]);
  });

  it('plans exactly the rules the evaluation consults (random requests)', () => {
    const rules = [
      rule('a', {
        conditions: [{ field: 'amount', op: 'gt', value: 50 }],
        limit: { sum: 'parameters.amount', max: 100, window: '1h', by: [] },
      }),
      rule('b', {
        severity: 'ADVISORY',
        applies_to: { resources: ['order:*'] },
        limit: { count: true, max: 3, window: '1m', by: ['resource'] },
      }),
      rule('c', {
        severity: 'REQUIRES_APPROVAL',
        conditions: [{ field: 'kind', op: 'eq', value: 'refund' }],
        requires_prior: { action: 'orders.review', within: '1h', same: [] },
      }),
    ];
    const policy = compilePolicy(rules);
    for (const amount of [0, 50, 51, 500]) {
      for (const kind of ['refund', 'other']) {
        for (const resource of ['order:1', 'user:1']) {
          const req = request({ resource, parameters: { amount, kind } });
          const plan = windowPlan(policy, req, NOW);
          const r = complete(
            evaluate(
              policy,
              req,
              NOW,
              null,
              null,
              windowStates(
                plan,
                'fits',
                plan.priors.map(() => true),
              ),
            ),
          );
          const consulted = r.precedence_trace.filter((e) => e.limit_state !== undefined).map((e) => e.rule_id);
          expect([...plan.limits, ...plan.priors].map((n) => n.rule_id).sort()).toEqual(consulted.sort());
        }
      }
    }
  });
});

describe('shadow rules that remember', () => {
  const shadowBudget = rule('shadow', { mode: 'shadow', limit: { count: true, max: 1, window: '1h', by: [] } });

  it('are planned like enforced ones and never change the verdict', () => {
    const policy = compilePolicy([shadowBudget]);
    expect(policy.hasWindows).toBe(true);
    expect(windowPlan(policy, request(), NOW).limits.map((n) => n.rule_id)).toEqual(['rul-shadow']);
    const full = complete(evaluate(policy, request(), NOW, null, null, states([['shadow', { used: 1 }]])));
    expect(full.verdict).toBe('allowed');
    expect(full.shadow).toEqual([{ rule_id: 'rul-shadow', rule_version_id: 'rv-shadow', would_be: 'blocked' }]);
    const room = complete(evaluate(policy, request(), NOW, null, null, states([['shadow', { used: 0 }]])));
    expect(room.shadow).toEqual([]);
    expect(proceeds(full)).toBe(true);
  });
});

describe('consumption', () => {
  it('proceeds for allowed, observe, the default and verdict strings of ADVISORY and ALLOW rules', () => {
    const at = (rules: EngineRule[], settings = {}) => complete(evaluate(compilePolicy(rules, [], settings), request(), NOW));
    expect(proceeds(at([]))).toBe(true);
    expect(proceeds(at([], { default_verdict: 'needs_review' }))).toBe(true);
    expect(proceeds(at([rule('o', { severity: 'ADVISORY' })]))).toBe(true);
    expect(proceeds(at([rule('o', { severity: 'ADVISORY', verdict: 'flagged' })]))).toBe(true);
    expect(proceeds(at([rule('a', { severity: 'ALLOW', verdict: 'fine' })]))).toBe(true);
    expect(proceeds(at([rule('m')]))).toBe(false);
    expect(proceeds(at([rule('m', { verdict: 'denied' })]))).toBe(false);
    expect(proceeds(at([rule('q', { severity: 'REQUIRES_APPROVAL' })]))).toBe(false);
    expect(proceeds(at([rule('q', { severity: 'REQUIRES_APPROVAL', verdict: 'escalate' })]))).toBe(false);
    expect(proceeds(at([rule('x', { severity: 'ADVISORY', verdict: 'blocked' })]))).toBe(false);
  });

  it('lets a full ADVISORY budget observe, and consumes only the windows that fit', () => {
    const policy = compilePolicy([rate, budget]);
    const ledger = new WindowLedger();
    const req = request({ parameters: { amount: 10 } });
    const plan = windowPlan(policy, req, NOW);
    ledger.take('c0', plan.limits, [], NOW);
    ledger.take('c1', plan.limits, [], NOW);
    const third = ledger.take('c2', plan.limits, [], NOW);
    expect(third).toEqual({ taken: false, used_before: [20, 2] });
    const again = complete(evaluate(policy, req, NOW, null, null, windowStates(plan, third.used_before, [])));
    expect(again.verdict).toBe('observe');
    expect(entry(again, 'rate')).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    expect(entry(again, 'budget')).toMatchObject({ reason: 'condition_false', limit_state: 'within' });
    expect(proceeds(again)).toBe(true);
    const fit = needsThatFit(plan.limits, third.used_before);
    expect(fit.map((n) => n.rule_id)).toEqual(['rul-budget']);
    expect(ledger.take('c2', fit, [], NOW)).toEqual({ taken: true, used_before: [20] });
    expect(limitEntries(plan.limits, third.used_before, fit)).toEqual([
      { key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-budget', used_after: 30, used_before: 20, window: '1h' },
      { key: '{}', max: 2, rule_id: 'rul-rate', used_after: 2, used_before: 2, window: '1h' },
    ]);
  });

  it('counts what an approval let through: 90, then 500 approved, then 10 is held back', () => {
    const held = rule('held', {
      severity: 'REQUIRES_APPROVAL',
      limit: { sum: 'parameters.amount', max: 100, window: '1h', by: ['principal'] },
    });
    const policy = compilePolicy([held]);
    const ledger = new WindowLedger();
    const decide = (id: string, amount: number, approval: { approvalId: string; ruleVersionIds: Set<string> } | null = null) => {
      const req = request({ parameters: { amount } });
      const plan = windowPlan(policy, req, NOW, approval);
      const used = ledger.peek(plan.limits, NOW);
      const r = complete(evaluate(policy, req, NOW, approval, null, windowStates(plan, used, [])));
      const fit = proceeds(r) ? needsThatFit(plan.limits, used) : [];
      const took = fit.length > 0 ? ledger.take(id, fit, [], NOW) : { taken: false };
      return { r, limits: limitEntries(plan.limits, used, took.taken ? fit : []) };
    };
    expect(decide('c1', 90).r.verdict).toBe('allowed');
    expect(decide('c2', 500).r.verdict).toBe('approval_required');
    const approved = decide('c3', 500, { approvalId: 'apr-1', ruleVersionIds: new Set(['rv-held']) });
    expect(approved.r.verdict).toBe('allowed');
    expect(entry(approved.r, 'held')).toMatchObject({ reason: 'overridden', overridden_by: 'apr-1' });
    expect(approved.limits).toEqual([
      { key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-held', used_after: 590, used_before: 90, window: '1h' },
    ]);
    const after = decide('c4', 10);
    expect(after.r.verdict).toBe('approval_required');
    expect(entry(after.r, 'held')).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    expect(after.limits[0]).toMatchObject({ used_before: 590, used_after: 590 });
  });

  it('takes a forced need whatever its window holds, and the others all or nothing', () => {
    const policy = compilePolicy(
      [budget, rate],
      [{ id: 'ovr-1', target_rule_ids: ['rul-budget'], applies_to_scope: {}, expires_at: null, type: 'temporary' }],
    );
    const req = request({ parameters: { amount: 80 } });
    const plan = windowPlan(policy, req, NOW);
    expect(plan.limits.map((n) => [n.rule_id, n.forced])).toEqual([
      ['rul-budget', true],
      ['rul-rate', undefined],
    ]);
    const ledger = new WindowLedger();
    expect(ledger.take('c0', plan.limits, [], NOW).taken).toBe(true);
    // Past the budget's max through the forced need alone.
    expect(ledger.take('c1', plan.limits, [], NOW)).toEqual({ taken: true, used_before: [80, 1] });
    // The rate is full: the take fails whole, the forced budget included.
    expect(ledger.take('c2', plan.limits, [], NOW)).toEqual({ taken: false, used_before: [160, 2] });
    expect(needsThatFit(plan.limits, [160, 2]).map((n) => n.rule_id)).toEqual(['rul-budget']);
    expect(ledger.take('c2', needsThatFit(plan.limits, [160, 2]), [], NOW)).toEqual({ taken: true, used_before: [160] });
    expect(ledger.peek(plan.limits, NOW)).toEqual([240, 2]);
  });
});

describe('requires_prior', () => {
  const policy = compilePolicy([review]);
  it('fires when the prior is missing or unavailable, not when it was found', () => {
    const found = complete(evaluate(policy, request(), NOW, null, null, states([], [['review', true]])));
    expect(found.verdict).toBe('allowed');
    expect(entry(found, 'review')).toMatchObject({ reason: 'condition_false', limit_state: 'prior_found' });
    const missing = complete(evaluate(policy, request(), NOW, null, null, states([], [['review', false]])));
    expect(missing.verdict).toBe('approval_required');
    expect(entry(missing, 'review')).toMatchObject({ reason: 'fires', limit_state: 'prior_missing' });
    for (const s of [null, states([], [['review', 'unavailable']]), states([])]) {
      expect(entry(complete(evaluate(policy, request(), NOW, null, null, s)), 'review')).toMatchObject({
        reason: 'fires',
        limit_state: 'limit_unavailable',
      });
    }
  });

  it('leaves marks only for rules naming the action, each once, and only with the same values present', () => {
    const other = rule('other', { requires_prior: { action: 'orders.review', within: '2h', same: ['parameters.order_id'] } });
    const byPrincipal = rule('who', { requires_prior: { action: 'orders.review', within: '1h', same: ['principal'] } });
    const elsewhere = rule('else', { requires_prior: { action: 'orders.approve', within: '1h', same: [] } });
    const p = compilePolicy([review, other, byPrincipal, elsewhere]);
    expect(windowPlan(p, request({ action: 'orders.review' }), NOW).marks).toEqual([
      { action: 'orders.review', key: '{"parameters.order_id":"o-1"}' },
      { action: 'orders.review', key: '{"principal":"agn-1"}' },
    ]);
    expect(windowPlan(p, request({ action: 'orders.review', parameters: {} }), NOW).marks).toEqual([
      { action: 'orders.review', key: '{"principal":"agn-1"}' },
    ]);
    expect(windowPlan(p, request({ action: 'orders.approve' }), NOW).marks).toEqual([{ action: 'orders.approve', key: '{}' }]);
    expect(windowPlan(p, request({ action: 'orders.cancel' }), NOW).marks).toEqual([]);
  });

  it('finds the mark an earlier operation left in the ledger', () => {
    const ledger = new WindowLedger();
    const reviewReq = request({ action: 'orders.review' });
    const marks = windowPlan(policy, reviewReq, NOW).marks;
    ledger.take('c-review', [], marks, NOW);
    const plan = windowPlan(policy, request(), NOW + 1000);
    const found = ledger.priors(plan.priors, NOW + 1000);
    expect(complete(evaluate(policy, request(), NOW + 1000, null, null, windowStates(plan, 'fits', found))).verdict).toBe('allowed');
    const late = ledger.priors(plan.priors, NOW + 3_600_000);
    expect(complete(evaluate(policy, request(), NOW, null, null, windowStates(plan, 'fits', late))).verdict).toBe('approval_required');
  });
});

describe('write-time checks', () => {
  it('refuses parameter paths that name the request itself in conditions', () => {
    for (const path of ['parameters.action', 'parameters.resource', 'parameters.scope', 'parameters.scope.region']) {
      expect(isParameterPath(path)).toBe(false);
      expect(limitProblems({ sum: path, max: 1, window: '1h', by: [] })).toContain(
        'limit.sum: parameters.<field>, a dot path into the parameters',
      );
    }
    expect(isParameterPath('parameters.actions')).toBe(true);
    expect(isParameterPath('parameters.refund.resource')).toBe(true);
  });

  it('is part of ruleProblems, and the compiler refuses what it refuses', () => {
    const bad = { severity: 'ALLOW', limit: { count: true, max: 1, window: '1y', by: [] } };
    expect(ruleProblems(bad)).toEqual([
      'limit: only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it',
      'limit.window: a duration from 1s to 366d, such as 90s, 15m, 1h, 24h or 7d',
    ]);
    expect(() => compilePolicy([rule('bad', { severity: 'ALLOW', limit: { count: true, max: 1, window: '1h', by: [] } })])).toThrow(
      PolicyCompileError,
    );
    expect(() => compilePolicy([rule('both', { limit: budget.limit, requires_prior: review.requires_prior })])).toThrow(/not both/);
  });
});

describe('resolve', () => {
  it('asks for the fields of a budget below an ADVISORY rule that fires, so the operation is counted', () => {
    const flag = rule('flag', { severity: 'ADVISORY', priority: 10 });
    const advisoryBudget = rule('ab', { severity: 'ADVISORY', limit: { sum: 'parameters.amount', max: 100, window: '1h', by: [] } });
    const policy = compilePolicy([flag, advisoryBudget]);
    const req = request({ mode: 'resolve', parameters: null, context: {} });
    const r = evaluate(policy, req, NOW, null, null, null) as IncompleteEvaluation;
    expect(r.status).toBe('incomplete');
    expect(r.required_context.map((f) => f.field)).toEqual(['amount']);
    // Below a MANDATORY rule that fires nothing goes ahead: nothing more is asked.
    const blocking = compilePolicy([rule('m'), advisoryBudget]);
    expect(complete(evaluate(blocking, req, NOW, null, null, null)).verdict).toBe('blocked');
  });
});
