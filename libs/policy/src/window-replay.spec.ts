import { compilePolicy } from './compile';
import { windowPlan } from './evaluate';
import type { EngineRule, EvaluationRequest } from './types';
import { WindowLedger } from './window-ledger';
import { decideWithLedger } from './window-replay';

const T0 = '2026-01-01T00:00:00Z';
const AT = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;

const rule = (id: string, extra: Partial<EngineRule>): EngineRule => ({
  rule_id: `rul-${id}`,
  rule_version_id: `rv-${id}`,
  selector: {},
  severity: 'MANDATORY',
  version_created_at: T0,
  ...extra,
});
const refund = (amount: number, order = 'o-1'): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.refund',
  resource: `order:${order}`,
  scope: {},
  parameters: { amount, order_id: order },
  principal: 'agn-1',
});
const verdictOf = (d: ReturnType<typeof decideWithLedger>) => (d.result.status === 'complete' ? d.result.verdict : d.result.status);

describe(decideWithLedger.name, () => {
  const budget = rule('budget', {
    applies_to: { actions: ['payments.refund'] },
    limit: { sum: 'parameters.amount', max: 100, window: '1h', by: ['principal'] },
  });
  const advisory = rule('rate', {
    severity: 'ADVISORY',
    applies_to: { actions: ['payments.refund'] },
    limit: { count: true, max: 1, window: '1h', by: [] },
  });

  it('takes what an answer that goes ahead consumes, and nothing for a refusal', () => {
    const sut = new WindowLedger();
    const policy = compilePolicy([budget]);
    const at = (m: number) => AT + m * MINUTE;
    const first = decideWithLedger(policy, refund(60), new Date(at(0)), at(0), sut, 'c1');
    expect([verdictOf(first), first.limits]).toEqual([
      'allowed',
      [{ key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-budget', used_after: 60, used_before: 0, window: '1h' }],
    ]);
    const refused = decideWithLedger(policy, refund(50), new Date(at(1)), at(1), sut, 'c2');
    expect([verdictOf(refused), refused.limits[0].used_before, refused.limits[0].used_after]).toEqual(['blocked', 60, 60]);
    expect(sut.peek(windowPlan(policy, refund(1), at(2)).limits, at(2))).toEqual([60]);
    expect(sut.giveBack('c2', at(2))).toEqual([]);
    expect(sut.giveBack('c1', at(2))).toEqual([{ amount: 60, key: '{"principal":"agn-1"}', rule_id: 'rul-budget', window: '1h' }]);
    expect(verdictOf(decideWithLedger(policy, refund(100), new Date(at(3)), at(3), sut, 'c3'))).toBe('allowed');
  });

  it('lets a full ADVISORY budget observe without taking more, while the windows that fit still take', () => {
    const sut = new WindowLedger();
    const policy = compilePolicy([budget, advisory]);
    expect(verdictOf(decideWithLedger(policy, refund(10), new Date(AT), AT, sut, 'c1'))).toBe('allowed');
    const second = decideWithLedger(policy, refund(10), new Date(AT + 1), AT + 1, sut, 'c2');
    expect(verdictOf(second)).toBe('observe');
    expect(second.limits.map((l) => [l.rule_id, l.used_before, l.used_after])).toEqual([
      ['rul-budget', 10, 20],
      ['rul-rate', 1, 1],
    ]);
  });

  it('leaves a mark an answer that goes ahead, which a later requires_prior finds', () => {
    const sut = new WindowLedger();
    const review = rule('review', {
      applies_to: { actions: ['payments.refund'] },
      requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
    });
    const policy = compilePolicy([review]);
    expect(verdictOf(decideWithLedger(policy, refund(1), new Date(AT), AT, sut, 'c1'))).toBe('blocked');
    const reviewed = decideWithLedger(policy, { ...refund(1), action: 'orders.review' }, new Date(AT + 1), AT + 1, sut, 'c2');
    expect([verdictOf(reviewed), reviewed.limits]).toEqual(['allowed', []]);
    expect(verdictOf(decideWithLedger(policy, refund(1), new Date(AT + 2), AT + 2, sut, 'c3'))).toBe('allowed');
    expect(verdictOf(decideWithLedger(policy, refund(1, 'o-2'), new Date(AT + 3), AT + 3, sut, 'c4'))).toBe('blocked');
  });

  it("counts a tenant's verdict string in a budget but leaves no mark for it (simulation and rules test as the gateway)", () => {
    const sut = new WindowLedger();
    const review = rule('review', {
      applies_to: { actions: ['payments.refund'] },
      requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
    });
    const reviews = rule('reviews', {
      severity: 'ADVISORY',
      applies_to: { actions: ['orders.review'] },
      limit: { count: true, max: 5, window: '1h', by: [] },
    });
    const policy = compilePolicy([review, reviews], [], { default_verdict: 'denied' });
    const denied = decideWithLedger(policy, { ...refund(1), action: 'orders.review' }, new Date(AT), AT, sut, 'c1');
    expect([verdictOf(denied), denied.limits.map((l) => [l.used_before, l.used_after])]).toEqual(['denied', [[0, 1]]]);
    expect(verdictOf(decideWithLedger(policy, refund(1), new Date(AT + 1), AT + 1, sut, 'c2'))).toBe('blocked');
  });
});
