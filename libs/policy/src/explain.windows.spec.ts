import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { explain } from './explain';
import type { CompleteEvaluation, EngineRule, EvaluationRequest } from './types';
import { recordedStates, limitEntries } from './window-states';
import type { WindowStates } from './window-rules';
import { windowPlan } from './evaluate';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}

const request = (parameters: Record<string, unknown>): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.refund',
  resource: 'order:o-1',
  scope: {},
  parameters,
  principal: 'agn-1',
});

const limitState = (id: string, used: number): WindowStates => ({ limits: new Map([[`rul-${id}`, { used }]]), priors: new Map() });

function run(rules: EngineRule[], req: EvaluationRequest, states: WindowStates | null) {
  const policy = compilePolicy(rules);
  const result = evaluate(policy, req, NOW, null, null, states) as CompleteEvaluation;
  expect(result.status).toBe('complete');
  return { policy, result, explanation: explain(policy, req, result, NOW, null, states) };
}

const budget = rule('budget', { limit: { sum: 'parameters.amount', max: 5000, window: '24h', by: ['principal'] } });

describe('explanations of rules that remember', () => {
  it('offers amount <= max - used when a sum budget blocks, and that amount is allowed', () => {
    const { result, explanation } = run([budget], request({ amount: 2000 }), limitState('budget', 3800));
    expect(result.verdict).toBe('blocked');
    expect(explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 1200 }] }] });
    const again = evaluate(compilePolicy([budget]), request({ amount: 1200 }), NOW, null, null, limitState('budget', 3800));
    expect((again as CompleteEvaluation).verdict).toBe('allowed');
  });

  it('combines the budget with the rule conditions: either row stops it', () => {
    const r = rule('budget', {
      conditions: [{ field: 'amount', op: 'gt', value: 100 }],
      limit: { sum: 'parameters.amount', max: 5000, window: '24h', by: [] },
    });
    const { explanation } = run([r], request({ amount: 2000 }), limitState('budget', 4000));
    expect(explanation!.to_allow).toEqual([
      { changes: [{ field: 'amount', op: 'lte', value: 100 }] },
      { changes: [{ field: 'amount', op: 'lte', value: 1000 }] },
    ]);
  });

  it('says a full count budget is not invertible, and why', () => {
    const rate = rule('rate', {
      severity: 'REQUIRES_APPROVAL',
      deciders: ['role-ops'],
      limit: { count: true, max: 50, window: '1h', by: [] },
    });
    const { result, explanation } = run([rate], request({ amount: 1 }), limitState('rate', 50));
    expect(result.verdict).toBe('approval_required');
    expect(explanation).toEqual({
      deciders: ['role-ops'],
      not_invertible: [{ field: 'limit.count', op: 'limit', reason: 'window full: 50 of 50 in 1h', rule_id: 'rul-rate' }],
      to_allow: [],
    });
  });

  it('says a missing prior is not invertible, and why', () => {
    const review = rule('review', { requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] } });
    const states: WindowStates = { limits: new Map(), priors: new Map([['rul-review', false]]) };
    const { explanation } = run([review], request({ order_id: 'o-1' }), states);
    expect(explanation!.not_invertible).toEqual([
      {
        field: 'requires_prior',
        op: 'requires_prior',
        reason: 'needs a prior orders.review on the same parameters.order_id within 1h',
        rule_id: 'rul-review',
      },
    ]);
    expect(explanation!.to_allow).toEqual([]);
  });

  it('says an unavailable window is not invertible', () => {
    const { explanation } = run([budget], request({ amount: 1 }), null);
    expect(explanation!.not_invertible).toEqual([
      { field: 'limit', op: 'limit', reason: 'the window store could not be read or written (limit_unavailable)', rule_id: 'rul-budget' },
    ]);
    expect(explanation!.to_allow).toEqual([]);
  });

  it('never changes a key field (another key is another window)', () => {
    const r = rule('per-order', {
      conditions: [{ field: 'order_id', op: 'eq', value: 'o-1' }],
      limit: { count: true, max: 1, window: '1h', by: ['parameters.order_id'] },
    });
    const { explanation } = run([r], request({ order_id: 'o-1' }), limitState('per-order', 1));
    expect(explanation!.to_allow).toEqual([]);
  });

  it('gives the same explanation from the states rebuilt from the record', () => {
    const policy = compilePolicy([budget]);
    const req = request({ amount: 2000 });
    const plan = windowPlan(policy, req, NOW);
    const states = limitState('budget', 3800);
    const result = evaluate(policy, req, NOW, null, null, states) as CompleteEvaluation;
    const rebuilt = recordedStates(limitEntries(plan.limits, [3800], []), result.precedence_trace);
    expect(evaluate(policy, req, NOW, null, null, rebuilt)).toEqual(result);
    expect(explain(policy, req, result, NOW, null, rebuilt)).toEqual(explain(policy, req, result, NOW, null, states));
  });
});
