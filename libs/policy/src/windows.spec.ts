import { compilePolicy } from './compile';
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
import { windowStates } from './window-states';
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
      {
        rule_id: 'rul-budget',
        rule_version_id: 'rv-budget',
        key: '{"principal":"agn-1"}',
        window: '1h',
        window_ms: 3_600_000,
        amount: 90,
        max: 100,
      },
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
