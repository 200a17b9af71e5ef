import { SelectorTable } from './selector-table';

describe(SelectorTable.name, () => {
  const sut = new SelectorTable([
    { selectorKeys: [], selectorValues: [] },
    { selectorKeys: ['region'], selectorValues: ['eu'] },
    { selectorKeys: ['region', 'env'], selectorValues: ['eu', 'prod'] },
    { selectorKeys: ['tier'], selectorValues: [1] },
    { selectorKeys: ['flag'], selectorValues: [true] },
  ]);
  const match = (ordinal: number, scope: Record<string, string | number | boolean>) =>
    sut.match(ordinal, sut.encode(scope), Object.keys(scope).length);

  it('grades an empty selector tenant (2), a smaller one partial (1), an equal one exact (0)', () => {
    expect(match(0, { region: 'eu', env: 'prod' })).toBe(2);
    expect(match(1, { region: 'eu', env: 'prod' })).toBe(1);
    expect(match(2, { region: 'eu', env: 'prod' })).toBe(0);
    expect(match(1, { region: 'eu' })).toBe(0);
  });

  it('refuses a selector field that is absent or has another value (-1)', () => {
    expect(match(2, { region: 'eu' })).toBe(-1);
    expect(match(1, { region: 'us' })).toBe(-1);
    expect(match(1, {})).toBe(-1);
  });

  it('compares values with their types', () => {
    expect(match(3, { tier: 1 })).toBe(0);
    expect(match(3, { tier: '1' })).toBe(-1);
    expect(match(4, { flag: true })).toBe(0);
    expect(match(4, { flag: 'true' })).toBe(-1);
  });
});
