import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { explain, MAX_ALTERNATIVES, type Explanation } from './explain';
import type { CompleteEvaluation, EngineOverride, EngineRule, EvaluationRequest, TenantPolicy } from './types';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}

interface Setup {
  rules: EngineRule[];
  overrides?: EngineOverride[];
  settings?: TenantPolicy;
}

function request(req: Partial<EvaluationRequest>): EvaluationRequest {
  return { mode: 'check', action: 'payments.transfer', resource: 'acct:eu/1', scope: { region: 'eu' }, ...req };
}

/** Evaluates and explains; the evaluation must be complete. */
function sut(setup: Setup, req: Partial<EvaluationRequest>): { verdict: string; explanation: Explanation | null } {
  const policy = compilePolicy(setup.rules, setup.overrides ?? [], setup.settings ?? {});
  const r = request(req);
  const result = evaluate(policy, r, NOW);
  expect(result.status).toBe('complete');
  return { verdict: (result as CompleteEvaluation).verdict, explanation: explain(policy, r, result, NOW) };
}

const verdictWith = (setup: Setup, req: Partial<EvaluationRequest>): string => {
  const r = evaluate(compilePolicy(setup.rules, setup.overrides ?? [], setup.settings ?? {}), request(req), NOW);
  return r.status === 'complete' ? r.verdict : r.status;
};

describe(explain.name, () => {
  it('inverts `amount gt 10000` into `amount lte 10000`, and that change is allowed', () => {
    const setup = { rules: [rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] })] };
    const { verdict, explanation } = sut(setup, { parameters: { amount: 25000 } });
    expect(verdict).toBe('blocked');
    expect(explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }] });
    expect(verdictWith(setup, { parameters: { amount: 10000 } })).toBe('allowed');
  });

  it.each([
    ['gte', 10, 'lt', 10],
    ['lt', 10, 'gte', 10],
    ['lte', 10, 'gt', 10],
    ['eq', 'IR', 'neq', 'IR'],
    ['neq', 'EUR', 'eq', 'EUR'],
    ['in', ['CU', 'IR'], 'not_in', ['CU', 'IR']],
    ['not_in', ['EUR', 'USD'], 'in', ['EUR', 'USD']],
  ] as const)('inverts %s %j into %s %j', (op, value, inverse, inverseValue) => {
    const current = { gte: 12, lt: 3, lte: 3, eq: 'IR', neq: 'GBP', in: 'CU', not_in: 'GBP' }[op];
    const { explanation } = sut(
      { rules: [rule('r', { conditions: [{ field: 'f', op, value: value as never }] })] },
      { parameters: { f: current } },
    );
    expect(explanation!.to_allow).toEqual([{ changes: [{ field: 'f', op: inverse, value: inverseValue }] }]);
  });

  it('inverts ISO date bounds, keeping the rule spelling', () => {
    const setup = { rules: [rule('late', { conditions: [{ field: 'value_date', op: 'gt', value: '2026-12-31' }] })] };
    const { explanation } = sut(setup, { parameters: { value_date: '2027-01-15' } });
    expect(explanation!.to_allow).toEqual([{ changes: [{ field: 'value_date', op: 'lte', value: '2026-12-31' }] }]);
    expect(verdictWith(setup, { parameters: { value_date: '2026-12-31' } })).toBe('allowed');
  });

  it('inverts exists both ways', () => {
    const present = sut({ rules: [rule('memo', { conditions: [{ field: 'memo', op: 'exists' }] })] }, { parameters: { memo: 'hi' } });
    expect(present.explanation!.to_allow).toEqual([{ changes: [{ field: 'memo', op: 'exists', value: false }] }]);
    const absent = sut({ rules: [rule('no-ref', { conditions: [{ field: 'ref', op: 'exists', value: false }] })] }, { parameters: {} });
    expect(absent.explanation!.to_allow).toEqual([{ changes: [{ field: 'ref', op: 'exists', value: true }] }]);
  });

  it('offers one alternative per row of an `all` rule', () => {
    const setup = {
      rules: [
        rule('r', {
          conditions: [
            { field: 'amount', op: 'gt', value: 10000 },
            { field: 'currency', op: 'eq', value: 'USD' },
          ],
        }),
      ],
    };
    const { explanation } = sut(setup, { parameters: { amount: 20000, currency: 'USD' } });
    expect(explanation!.to_allow).toEqual([
      { changes: [{ field: 'amount', op: 'lte', value: 10000 }] },
      { changes: [{ field: 'currency', op: 'neq', value: 'USD' }] },
    ]);
  });

  it('asks every holding row of an `any` rule to change, together', () => {
    const setup = {
      rules: [
        rule('r', {
          condition_mode: 'any',
          conditions: [
            { field: 'amount', op: 'gt', value: 10000 },
            { field: 'country', op: 'in', value: ['CU', 'IR'] },
            { field: 'channel', op: 'eq', value: 'cash' },
          ],
        }),
      ],
    };
    const { explanation } = sut(setup, { parameters: { amount: 20000, country: 'IR', channel: 'wire' } });
    expect(explanation!.to_allow).toEqual([
      {
        changes: [
          { field: 'amount', op: 'lte', value: 10000 },
          { field: 'country', op: 'not_in', value: ['CU', 'IR'] },
        ],
      },
    ]);
  });

  it('intersects the changes two rules ask of one field, and drops contradictions', () => {
    const both = {
      rules: [
        rule('a', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] }),
        rule('b', { severity: 'REQUIRES_APPROVAL', conditions: [{ field: 'amount', op: 'gt', value: 5000 }] }),
      ],
    };
    expect(sut(both, { parameters: { amount: 20000 } }).explanation!.to_allow).toEqual([
      { changes: [{ field: 'amount', op: 'lte', value: 5000 }] },
    ]);
    const contradiction = {
      rules: [
        rule('low', { conditions: [{ field: 'amount', op: 'lt', value: 100 }] }),
        rule('high', { conditions: [{ field: 'amount', op: 'gte', value: 0 }] }),
      ],
    };
    expect(sut(contradiction, { parameters: { amount: 50 } }).explanation!.to_allow).toEqual([]);
  });

  it('keeps a rule that does not fire from firing after the change', () => {
    const setup = {
      rules: [
        rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] }),
        rule('negative', { conditions: [{ field: 'amount', op: 'lt', value: 0 }] }),
      ],
    };
    const { explanation } = sut(setup, { parameters: { amount: 20000 } });
    expect(explanation!.to_allow).toEqual([
      {
        changes: [
          { field: 'amount', op: 'gte', value: 0 },
          { field: 'amount', op: 'lte', value: 10000 },
        ],
      },
    ]);
    expect(verdictWith(setup, { parameters: { amount: 0 } })).toBe('allowed');
  });

  it('includes a Requirement min of the field in the change', () => {
    const setup = {
      rules: [
        rule('large', {
          conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
          requires: [{ field: 'amount', type: 'number', min: 1 }],
        }),
      ],
    };
    expect(sut(setup, { parameters: { amount: 20000 } }).explanation!.to_allow).toEqual([
      {
        changes: [
          { field: 'amount', op: 'gte', value: 1 },
          { field: 'amount', op: 'lte', value: 10000 },
        ],
      },
    ]);
  });

  it('reports contains and starts_with rows as not invertible', () => {
    const setup = {
      rules: [
        rule('memo', { conditions: [{ field: 'memo', op: 'contains', value: 'gift' }] }),
        rule('iban', { conditions: [{ field: 'iban', op: 'starts_with', value: 'IR' }] }),
      ],
    };
    const { explanation } = sut(setup, { parameters: { memo: 'a gift', iban: 'IR12' } });
    expect(explanation).toEqual({
      not_invertible: [
        { field: 'memo', op: 'contains', rule_id: 'rul-memo' },
        { field: 'iban', op: 'starts_with', rule_id: 'rul-iban' },
      ],
      to_allow: [],
    });
  });

  it('never suggests changing action, resource or scope', () => {
    const setup = {
      rules: [
        rule('eu', {
          conditions: [
            { field: 'scope.region', op: 'eq', value: 'eu' },
            { field: 'amount', op: 'gt', value: 10 },
          ],
        }),
      ],
    };
    const { explanation } = sut(setup, { parameters: { amount: 20 } });
    expect(explanation).toEqual({
      not_invertible: [{ field: 'scope.region', op: 'eq', rule_id: 'rul-eu' }],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10 }] }],
    });
  });

  it('has nothing to offer against a rule without conditions', () => {
    const { explanation } = sut({ rules: [rule('always')] }, { parameters: {} });
    expect(explanation).toEqual({ not_invertible: [], to_allow: [] });
  });

  it('names the Fact requirement a parameter change cannot meet, and checks the alternative with a Fact that meets it', () => {
    const setup = {
      rules: [
        rule('sanctions', {
          conditions: [{ field: 'beneficiary.country', op: 'in', value: ['CU', 'IR'] }],
          requires: [{ field: 'beneficiary.country', type: 'string', source_requirement: 'verified', acceptable_sources: ['kyc'] }],
        }),
      ],
    };
    const { explanation } = sut(setup, {
      context: { 'beneficiary.country': { value: 'IR', source: 'kyc', verification_status: 'verified' } },
    });
    expect(explanation!.to_allow).toEqual([
      {
        changes: [{ field: 'beneficiary.country', op: 'not_in', value: ['CU', 'IR'] }],
        requirements: [
          { acceptable_sources: ['kyc'], field: 'beneficiary.country', rule_id: 'rul-sanctions', source_requirement: 'verified' },
        ],
      },
    ]);
    // A plain parameter does not do: the Fact wins, and a parameter could not meet the requirement anyway.
    expect(
      verdictWith(setup, {
        parameters: { beneficiary: { country: 'DE' } },
        context: { 'beneficiary.country': { value: 'IR', source: 'kyc', verification_status: 'verified' } },
      }),
    ).toBe('blocked');
  });

  it('writes nested parameter paths', () => {
    const setup = { rules: [rule('r', { conditions: [{ field: 'transfer.amount', op: 'gte', value: 100 }] })] };
    const { explanation } = sut(setup, { parameters: { transfer: { amount: 500, currency: 'EUR' } } });
    expect(explanation!.to_allow).toEqual([{ changes: [{ field: 'transfer.amount', op: 'lt', value: 100 }] }]);
  });

  it('names the deciders of an approval_required verdict', () => {
    const setup = {
      rules: [
        rule('large', {
          severity: 'REQUIRES_APPROVAL',
          deciders: ['role-finance', 'hum-1'],
          conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
        }),
      ],
    };
    const { verdict, explanation } = sut(setup, { parameters: { amount: 20000 } });
    expect(verdict).toBe('approval_required');
    expect(explanation).toEqual({
      deciders: ['role-finance', 'hum-1'],
      not_invertible: [],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }],
    });
  });

  it('respects a tenant default that is not allowed', () => {
    const setup = {
      rules: [rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] })],
      settings: { default_verdict: 'blocked' },
    };
    expect(sut(setup, { parameters: { amount: 20000 } }).explanation!.to_allow).toEqual([]);
  });

  it('stops ADVISORY and tenant-verdict rules too, since only `allowed` is the goal', () => {
    const setup = {
      rules: [
        rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] }),
        rule('note', { severity: 'ADVISORY', conditions: [{ field: 'amount', op: 'gt', value: 9000 }] }),
      ],
    };
    expect(sut(setup, { parameters: { amount: 20000 } }).explanation!.to_allow).toEqual([
      { changes: [{ field: 'amount', op: 'lte', value: 9000 }] },
    ]);
  });

  it('takes the rows of an allowed `any` rule on one field together: each member of the change fires one, so nothing below it needs changing', () => {
    const setup = {
      rules: [
        rule('foreign', { conditions: [{ field: 'currency', op: 'not_in', value: ['EUR', 'USD'] }] }),
        // Ranked above `review` (higher severity), and allowed when it fires.
        rule('known', {
          severity: 'ADVISORY',
          verdict: 'allowed',
          priority: 10,
          condition_mode: 'any',
          conditions: [
            { field: 'currency', op: 'eq', value: 'EUR' },
            { field: 'currency', op: 'eq', value: 'USD' },
          ],
        }),
        rule('review', { severity: 'ALLOW', verdict: 'approval_required', conditions: [{ field: 'amount', op: 'gt', value: 100 }] }),
      ],
    };
    const { verdict, explanation } = sut(setup, { parameters: { currency: 'GBP', amount: 500 } });
    expect(verdict).toBe('blocked');
    expect(explanation!.to_allow).toEqual([{ changes: [{ field: 'currency', op: 'in', value: ['EUR', 'USD'] }] }]);
    for (const currency of ['EUR', 'USD']) expect(verdictWith(setup, { parameters: { currency, amount: 500 } })).toBe('allowed');
  });

  it('is null for verdicts it does not explain and for incomplete results', () => {
    const policy = compilePolicy([rule('r', { severity: 'ALLOW' })]);
    const r = request({});
    expect(explain(policy, r, evaluate(policy, r, NOW), NOW)).toBeNull();
    const needy = compilePolicy([rule('r', { conditions: [{ field: 'amount', op: 'gt', value: 1 }] })]);
    expect(explain(needy, r, evaluate(needy, r, NOW), NOW)).toBeNull();
  });

  it('returns at most MAX_ALTERNATIVES alternatives', () => {
    const conditions = Array.from({ length: 12 }, (_, i) => ({ field: `f${i}`, op: 'eq' as const, value: i }));
    const parameters = Object.fromEntries(conditions.map((c) => [c.field, c.value]));
    const { explanation } = sut({ rules: [rule('many', { conditions })] }, { parameters });
    expect(explanation!.to_allow).toHaveLength(MAX_ALTERNATIVES);
  });

  it('explains a complete resolve through its Facts', () => {
    const policy = compilePolicy([rule('large', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] })]);
    const r: EvaluationRequest = {
      mode: 'resolve',
      action: 'payments.transfer',
      resource: 'acct:eu/1',
      scope: {},
      context: { amount: { value: 20000, source: 'agent' } },
    };
    const result = evaluate(policy, r, NOW);
    expect(explain(policy, r, result, NOW)!.to_allow).toEqual([{ changes: [{ field: 'amount', op: 'lte', value: 10000 }] }]);
  });
});
