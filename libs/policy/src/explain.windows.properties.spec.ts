// Property test of the explanation of a sum budget (fast-check): the room it offers is exact.
import fc from 'fast-check';
import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { explain } from './explain';
import type { CompleteEvaluation, EngineRule, EvaluationRequest } from './types';
import type { WindowStates } from './window-rules';

const NOW = Date.parse('2026-06-01T00:00:00Z');

const rule = (limit: EngineRule['limit']): EngineRule => ({
  rule_id: 'rul-b',
  rule_version_id: 'rv-b',
  selector: {},
  severity: 'MANDATORY',
  version_created_at: '2026-01-01T00:00:00Z',
  limit,
});
const request = (amount: number): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.refund',
  resource: 'r',
  scope: {},
  parameters: { amount },
});
const limitState = (used: number): WindowStates => ({ limits: new Map([['rul-b', { used }]]), priors: new Map() });

describe('the room a sum budget leaves (property)', () => {
  it('is exactly max - used: that amount is allowed, any amount above it is blocked', () => {
    const cents = fc.integer({ min: 1, max: 10_000_000 });
    fc.assert(
      fc.property(cents, fc.nat(), cents, (maxCents, usedSeed, overCents) => {
        const max = maxCents / 100;
        const used = (usedSeed % (maxCents + 1)) / 100;
        const policy = compilePolicy([rule({ sum: 'parameters.amount', max, window: '1h', by: [] })]);
        const states = limitState(used);
        const amount = (maxCents - Math.round(used * 100) + overCents) / 100;
        const req = request(amount);
        const result = evaluate(policy, req, NOW, null, null, states) as CompleteEvaluation;
        expect(result.verdict).toBe('blocked');
        const change = explain(policy, req, result, NOW, null, states)!.to_allow[0].changes[0];
        expect(change).toMatchObject({ field: 'amount', op: 'lte' });
        const at = (a: number) => (evaluate(policy, request(a), NOW, null, null, states) as CompleteEvaluation).verdict;
        expect(at(change.value as number)).toBe('allowed');
        expect(at((change.value as number) + 0.01)).toBe('blocked');
      }),
      { numRuns: 300 },
    );
  });
});
