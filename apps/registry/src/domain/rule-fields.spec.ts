import { normalizeAppliesTo } from './rule-fields';

describe(normalizeAppliesTo.name, () => {
  it('stores an empty applies_to as null', () => {
    expect(normalizeAppliesTo({})).toBeNull();
    expect(normalizeAppliesTo(undefined)).toBeNull();
    expect(normalizeAppliesTo({ actions: ['a'] })).toEqual({ actions: ['a'] });
  });
});
