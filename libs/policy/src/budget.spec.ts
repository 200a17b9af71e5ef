import { BUDGET_CHECK_EVERY, deadlineIn, earlier, EvaluationBudgetExceededError, type Deadline } from './budget';
import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { explain } from './explain';
import { WORST_GLOB } from './rule-limits.fixture';
import type { EngineOverride, EngineRule, EvaluationRequest } from './types';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}

const request = (req: Partial<EvaluationRequest> = {}): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.transfer',
  resource: 'acct:eu/1',
  scope: {},
  parameters: { amount: 50 },
  ...req,
});

/** A deadline already past (the engine must notice it whatever the size of the work). */
const PAST: Deadline = { at: Number.NEGATIVE_INFINITY, budgetMs: 50, kind: 'evaluation' };

/** Counts readings of the clock (performance.now) and, after `passAfter` of them, jumps past every deadline. */
function fakeClock(passAfter = Number.POSITIVE_INFINITY): { reads: () => number; restore: () => void } {
  let reads = 0;
  const spy = jest.spyOn(performance, 'now').mockImplementation(() => (++reads > passAfter ? 1e12 : 1000));
  return { reads: () => reads, restore: () => spy.mockRestore() };
}

/** Many ADVISORY rules, none of which fires, so that evaluate() walks every one of them. */
const manyRules = (n: number): EngineRule[] =>
  Array.from({ length: n }, (_, i) =>
    rule(`r${i}`, { severity: 'ADVISORY', conditions: [{ field: 'amount', op: 'gt', value: 1000 + i }] }),
  );

describe('evaluation budget', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers exactly as without a deadline when the budget is ample', () => {
    const policy = compilePolicy([...manyRules(50), rule('big', { conditions: [{ field: 'amount', op: 'gt', value: 10 }] })]);
    const sut = evaluate(policy, request(), NOW, null, deadlineIn(60_000));
    expect(sut).toEqual(evaluate(policy, request(), NOW));
  });

  it('throws evaluation_budget_exceeded, naming the budget, once the deadline has passed, however small the work', () => {
    const policy = compilePolicy([rule('one')]);
    const attempt = () => evaluate(policy, request(), NOW, null, PAST);
    expect(attempt).toThrow(EvaluationBudgetExceededError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'evaluation_budget_exceeded', budget: 'evaluation', budgetMs: 50 }));
    expect(() => evaluate(compilePolicy([]), request({ mode: 'resolve' }), NOW, null, PAST)).toThrow(EvaluationBudgetExceededError);
  });

  it('reads the clock once per BUDGET_CHECK_EVERY units of work and once at the end, not per rule', () => {
    const policy = compilePolicy(manyRules(640));
    const clock = fakeClock();
    evaluate(policy, request(), NOW, null, deadlineIn(50, 'evaluation', 1000));
    // 640 action-index entries of one unit, 640 candidates of three (the rule, its row, its field): about
    // (640 + 1920) / 64 = 40 periodic readings and the last, where one per rule would be over 640.
    expect(clock.reads()).toBeGreaterThan((640 + 1920) / BUDGET_CHECK_EVERY / 2);
    expect(clock.reads()).toBeLessThanOrEqual((640 + 1920) / BUDGET_CHECK_EVERY + 1);
  });

  it('stops in the middle of a long evaluation, at the first reading past the deadline', () => {
    const policy = compilePolicy(manyRules(640));
    const deadline = deadlineIn(50, 'evaluation', 1000);
    const clock = fakeClock(2);
    expect(() => evaluate(policy, request(), NOW, null, deadline)).toThrow(EvaluationBudgetExceededError);
    expect(clock.reads()).toBe(3); // two periodic readings in budget, the third past it: far from the ~40 of a whole evaluation
  });

  it('spends one unit per action glob tested, so rules filed at the root of the action index cannot escape it', () => {
    const rules = Array.from({ length: 1000 }, (_, i) => rule(`g${i}`, { applies_to: { actions: [`*never${i}`] } }));
    const policy = compilePolicy(rules);
    const clock = fakeClock(1);
    expect(() => evaluate(policy, request(), NOW, null, deadlineIn(50, 'evaluation', 1000))).toThrow(EvaluationBudgetExceededError);
    expect(clock.reads()).toBe(2); // after 64 and 128 of the 1,000 globs
  });

  it('bounds an accepted worst case: 100 rules of 100 worst-case resource globs against a 2,000-character resource', () => {
    const resources = Array.from({ length: 100 }, (_, i) => `${WORST_GLOB.slice(0, -3)}${i}`);
    const policy = compilePolicy(Array.from({ length: 100 }, (_, i) => rule(`w${i}`, { applies_to: { resources } })));
    const resource = 'a'.repeat(2000);
    // Without a budget the evaluation finishes (linear globs) with every rule not_applicable...
    const full = evaluate(policy, request({ resource }), NOW);
    expect(full.status).toBe('complete');
    expect(full.precedence_trace.every((e) => e.reason === 'not_applicable')).toBe(true);
    // ...and with one that is over before it starts, it stops at the first reading.
    expect(() => evaluate(policy, request({ resource }), NOW, null, PAST)).toThrow(EvaluationBudgetExceededError);
  });

  it('reads the clock after each CEL override condition, whatever the weight of the rule', () => {
    const overrides: EngineOverride[] = [
      {
        id: 'ovr-1',
        target_rule_ids: ['rul-one'],
        applies_to_scope: {},
        expires_at: null,
        type: 'conditional',
        conditions: 'amount < 20.0',
      },
    ];
    const policy = compilePolicy([rule('one')], overrides);
    const clock = fakeClock();
    evaluate(policy, request(), NOW, null, deadlineIn(50, 'evaluation', 1000));
    expect(clock.reads()).toBe(2); // after the CEL evaluation, and the last
  });

  it('bounds explanations too, and with the same deadline their verifying evaluations', () => {
    const policy = compilePolicy([rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10 }] })]);
    const result = evaluate(policy, request(), NOW);
    expect(explain(policy, request(), result, NOW, deadlineIn(60_000))).toEqual(explain(policy, request(), result, NOW));
    expect(() => explain(policy, request(), result, NOW, PAST)).toThrow(EvaluationBudgetExceededError);
  });

  it('takes the earlier of two deadlines and keeps its kind', () => {
    const a = deadlineIn(10, 'evaluation', 0);
    const b = deadlineIn(5, 'simulation', 0);
    expect(earlier(a, b)).toBe(b);
    expect(earlier(a, null)).toBe(a);
    expect(earlier(null, b)).toBe(b);
    expect(() => evaluate(compilePolicy([]), request(), NOW, null, { ...b, at: Number.NEGATIVE_INFINITY })).toThrow(
      expect.objectContaining({ budget: 'simulation', budgetMs: 5, message: 'the simulation budget of 5 ms is exceeded' }),
    );
  });
});
