import { normaliseAppliesTo, ruleContent } from './rule-content';

describe(ruleContent.name, () => {
  it('fills every default of an absent member', () => {
    expect(ruleContent({ directive: 'd', severity: 'MANDATORY' })).toEqual({
      directive: 'd',
      severity: 'MANDATORY',
      verdict: null,
      applies_to: null,
      conditions: [],
      condition_mode: 'all',
      requires: [],
      deciders: [],
      priority: null,
      mode: 'enforce',
      approvals_required: null,
      escalate_after: null,
      escalation_deciders: [],
      approval_expires_after: null,
      limit: null,
      requires_prior: null,
    });
  });

  it('carries limit and requires_prior with their key lists filled in', () => {
    const sut = ruleContent({
      directive: 'd',
      severity: 'MANDATORY',
      limit: { sum: 'parameters.amount', max: 1000, window: '24h' },
      requires_prior: { action: 'order.review', within: '1h', same: null },
    });
    expect(sut.limit).toEqual({ sum: 'parameters.amount', max: 1000, window: '24h', by: [] });
    expect(sut.requires_prior).toEqual({ action: 'order.review', within: '1h', same: [] });
    const counted = ruleContent({ directive: 'd', severity: 'ADVISORY', limit: { count: true, max: 5, window: '1h', by: ['principal'] } });
    expect(counted.limit).toEqual({ count: true, max: 5, window: '1h', by: ['principal'] });
  });

  it('keeps what is given, lists each decider once, and drops an undefined condition value', () => {
    const sut = ruleContent({
      directive: 'd',
      severity: 'REQUIRES_APPROVAL',
      verdict: 'escalate',
      applies_to: { actions: ['a.*'] },
      conditions: [
        { field: 'x', op: 'exists', value: undefined },
        { field: 'y', op: 'eq', value: null },
      ],
      condition_mode: 'any',
      deciders: ['role-a', 'role-a', 'role-b'],
      priority: 3,
      mode: 'shadow',
    });
    expect(sut).toMatchObject({
      verdict: 'escalate',
      applies_to: { actions: ['a.*'] },
      condition_mode: 'any',
      deciders: ['role-a', 'role-b'],
      priority: 3,
      mode: 'shadow',
    });
    expect(sut.conditions).toEqual([
      { field: 'x', op: 'exists' },
      { field: 'y', op: 'eq', value: null },
    ]);
    expect('value' in sut.conditions[0]).toBe(false);
  });
});

describe(normaliseAppliesTo.name, () => {
  it('stores an empty applies_to as null', () => {
    expect(normaliseAppliesTo({})).toBeNull();
    expect(normaliseAppliesTo(undefined)).toBeNull();
    expect(normaliseAppliesTo({ actions: null, resources: null })).toBeNull();
    expect(normaliseAppliesTo({ actions: ['a'] })).toEqual({ actions: ['a'] });
  });
});
