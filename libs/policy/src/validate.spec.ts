import { ruleProblems } from './validate';

const base = {};

describe(ruleProblems.name, () => {
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
    expect(ruleProblems({ ...base, requires: [{ field: 'x', type: 'enum' }, { field: 'y', type: 'number', min: 5, max: 1 }] })).toEqual([
      'requires[0]: type enum needs allowed_values',
      'requires[1]: min is greater than max',
    ]);
  });

  it('refuses duplicate globs', () => {
    expect(ruleProblems({ ...base, applies_to: { actions: ['a', 'a'] } })).toEqual(['applies_to.actions: duplicate globs']);
  });
});
