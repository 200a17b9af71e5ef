import { scopeContains, selectorProblems } from './selector';

describe(selectorProblems.name, () => {
  const settings = { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] }, tier: { type: 'number' as const } } } };

  it('accepts any flat field when the tenant has no scope_schema', () => {
    expect(selectorProblems({ anything: 'x', n: 1, b: true }, {})).toEqual([]);
  });

  it('checks fields, types and allowed values against the scope_schema', () => {
    expect(selectorProblems({ region: 'eu', tier: 2 }, settings.scope_schema)).toEqual([]);
    expect(selectorProblems({ region: 'asia' }, settings.scope_schema)).toEqual(['selector.region: "asia" is not one of ["eu","us"]']);
    expect(selectorProblems({ tier: 'gold' }, settings.scope_schema)).toEqual(['selector.tier: must be a number']);
    expect(selectorProblems({ team: 'x' }, settings.scope_schema)).toEqual(["selector.team: not a field of the tenant's scope_schema"]);
  });

  it('refuses odd field names, including prototype keys', () => {
    expect(selectorProblems({ 'a b': 'x' }, {})).toHaveLength(1);
    expect(selectorProblems(JSON.parse('{"__proto__": "x"}'), settings.scope_schema)).toHaveLength(1);
  });
});

describe(scopeContains.name, () => {
  it('holds when every required field is present with the same value', () => {
    expect(scopeContains({ region: 'eu', team: 'a' }, { region: 'eu' })).toBe(true);
    expect(scopeContains({ region: 'eu' }, { region: 'eu', team: 'a' })).toBe(false);
    expect(scopeContains({ region: 'us' }, { region: 'eu' })).toBe(false);
    expect(scopeContains({}, {})).toBe(true);
    expect(scopeContains({}, null)).toBe(true);
    expect(scopeContains({ n: 1 }, { n: '1' })).toBe(false);
  });
});
