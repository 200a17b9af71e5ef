import { RULE_AT_LIMITS } from './rule-limits.fixture';
import { ruleProblems } from './validate';

const base = {};

describe(ruleProblems.name, () => {
  it('refuses a go-ahead verdict on a blocking or approval rule, and nothing else of a verdict', () => {
    expect(ruleProblems({ severity: 'MANDATORY', verdict: 'allowed' })).toEqual([
      'verdict: a MANDATORY rule cannot answer allowed: it would outrank other rules as blocked and let the operation go',
    ]);
    expect(ruleProblems({ severity: 'REQUIRES_APPROVAL', verdict: 'observe' })).toHaveLength(1);
    for (const [severity, verdict] of [
      ['MANDATORY', 'approval_required'],
      ['MANDATORY', 'denied'],
      ['REQUIRES_APPROVAL', 'blocked'],
      ['ADVISORY', 'allowed'],
      ['ALLOW', 'observe'],
      ['MANDATORY', null],
    ])
      expect(ruleProblems({ severity: severity as string, verdict })).toEqual([]);
  });

  it('accepts ledger:<stream glob> in acceptable_sources and names a malformed one', () => {
    expect(ruleProblems({ requires: [{ field: 'a', type: 'any', acceptable_sources: ['ledger', 'ledger:kyc-*', 'crm'] }] })).toEqual([]);
    expect(ruleProblems({ requires: [{ field: 'a', type: 'any', acceptable_sources: ['ledger:', 'ledger:kyc/*'] }] })).toEqual([
      'requires[0]: acceptable_sources: "ledger:": ledger:<stream glob> needs a glob of 1 to 128 letters, digits, ".", "_", ":", "-", "*" or "?"',
      'requires[0]: acceptable_sources: "ledger:kyc/*": ledger:<stream glob> needs a glob of 1 to 128 letters, digits, ".", "_", ":", "-", "*" or "?"',
    ]);
  });

  it('accepts each op with the value it needs', () => {
    const sut = ruleProblems({
      ...base,
      conditions: [
        { field: 'a', op: 'eq', value: null },
        { field: 'a', op: 'in', value: ['x'] },
        { field: 'a', op: 'gt', value: 10 },
        { field: 'a', op: 'lte', value: '2026-01-01' },
        { field: 'a', op: 'exists' },
        { field: 'a', op: 'exists', value: false },
        { field: 'a', op: 'starts_with', value: 'x' },
        { field: 'a', op: 'contains', value: 3 },
      ],
    });
    expect(sut).toEqual([]);
  });

  it('names each row whose value does not fit its op', () => {
    const sut = ruleProblems({
      ...base,
      conditions: [
        { field: 'a', op: 'eq' },
        { field: 'a', op: 'in', value: 'x' },
        { field: 'a', op: 'gt', value: true },
        { field: 'a', op: 'exists', value: 'yes' },
        { field: 'a', op: 'starts_with', value: 1 },
      ],
    });
    expect(sut).toEqual([
      'conditions[0]: op eq needs a value',
      'conditions[1]: op in needs an array value',
      'conditions[2]: op gt needs a number or an ISO 8601 date or timestamp value',
      'conditions[3]: op exists takes true, false or no value',
      'conditions[4]: op starts_with needs a string value',
    ]);
  });

  it('refuses an ordered bound that is neither a number nor an ISO 8601 date: such a row could never be true', () => {
    expect(ruleProblems({ conditions: [{ field: 'a', op: 'lt', value: 'abc' }] })).toEqual([
      'conditions[0]: op lt needs a number or an ISO 8601 date or timestamp value',
    ]);
    expect(ruleProblems({ conditions: [{ field: 'a', op: 'gte', value: '2026-03-01T12:00:00Z' }] })).toEqual([]);
  });

  it('needs allowed_values for enum requirements and min <= max', () => {
    expect(
      ruleProblems({
        ...base,
        requires: [
          { field: 'x', type: 'enum' },
          { field: 'y', type: 'number', min: 5, max: 1 },
        ],
      }),
    ).toEqual(['requires[0]: type enum needs allowed_values', 'requires[1]: min is greater than max']);
  });

  it('refuses duplicate globs', () => {
    expect(ruleProblems({ ...base, applies_to: { actions: ['a', 'a'] } })).toEqual(['applies_to.actions: duplicate globs']);
  });

  it('accepts a rule just inside every limit', () => {
    expect(ruleProblems(RULE_AT_LIMITS)).toEqual([]);
  });

  it.each<[string, object, string]>([
    [
      '101 action globs',
      { applies_to: { actions: Array.from({ length: 101 }, (_, i) => `a${i}`) } },
      'applies_to.actions: at most 100 globs; this rule has 101',
    ],
    [
      'a glob of 501 characters',
      { applies_to: { resources: ['r'.repeat(501)] } },
      'applies_to.resources[0]: a glob has at most 500 characters; this one has 501',
    ],
    ['an empty glob', { applies_to: { resources: ['x', ''] } }, 'applies_to.resources[1]: a glob is empty'],
    [
      '65 wildcards',
      { applies_to: { resources: ['*?'.repeat(32) + '?'] } },
      'applies_to.resources[0]: a glob has at most 64 wildcards (* and ? together); this one has 65',
    ],
    [
      'a lone surrogate',
      { applies_to: { actions: ['pay.\udc00'] } },
      'applies_to.actions[0]: a glob holds a lone surrogate (half of a UTF-16 pair)',
    ],
    [
      '101 conditions',
      { conditions: Array.from({ length: 101 }, () => ({ field: 'a', op: 'exists' })) },
      'conditions: at most 100 condition rows; this rule has 101',
    ],
    [
      '101 requirements',
      { requires: Array.from({ length: 101 }, (_, i) => ({ field: `f${i}`, type: 'string' })) },
      'requires: at most 100 requirements; this rule has 101',
    ],
    [
      'a not_in list of 1,001 values',
      { conditions: [{ field: 'a', op: 'not_in', value: Array.from({ length: 1001 }, (_, i) => `v${i}`) }] },
      'conditions[0].value: op not_in takes at most 1000 values; this one has 1001',
    ],
    [
      'a value of 65,537 characters of JSON',
      { conditions: [{ field: 'a', op: 'contains', value: 'x'.repeat(65_535) }] },
      'conditions[0].value: at most 65536 characters as JSON; this one has 65537',
    ],
    [
      'a field path of 201 characters',
      { conditions: [{ field: 'f'.repeat(201), op: 'exists' }] },
      'conditions[0].field: at most 200 characters',
    ],
    [
      '1,001 allowed_values',
      { requires: [{ field: 'a', type: 'enum', allowed_values: Array.from({ length: 1001 }, (_, i) => i) }] },
      'requires[0].allowed_values: at most 1000 values',
    ],
    [
      '101 acceptable_sources',
      { requires: [{ field: 'a', type: 'string', acceptable_sources: Array.from({ length: 101 }, (_, i) => `s${i}`) }] },
      'requires[0].acceptable_sources: at most 100 sources',
    ],
  ])('refuses %s, naming the field and the limit', (_what, rule, problem) => {
    expect(ruleProblems(rule)).toEqual([problem]);
  });
});
