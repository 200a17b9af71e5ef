import { anyGlobMatches, globMatches } from './glob';

describe(globMatches.name, () => {
  it('matches any run of characters with * and one character with ?', () => {
    expect(globMatches('payments.*', 'payments.transfer')).toBe(true);
    expect(globMatches('payments.*', 'payments.transfer.eu')).toBe(true);
    expect(globMatches('payments.*', 'billing.transfer')).toBe(false);
    expect(globMatches('deploy?', 'deploy1')).toBe(true);
    expect(globMatches('deploy?', 'deploy12')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
  });

  it('treats regular-expression characters literally and the whole value must match', () => {
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('a+b(c)[d]', 'a+b(c)[d]')).toBe(true);
    expect(globMatches('transfer', 'transfer.large')).toBe(false);
    expect(globMatches('Transfer', 'transfer')).toBe(false);
  });
});

describe(anyGlobMatches.name, () => {
  it('matches everything when the list is absent', () => {
    expect(anyGlobMatches(undefined, 'anything')).toBe(true);
    expect(anyGlobMatches(['a*', 'b*'], 'bee')).toBe(true);
    expect(anyGlobMatches(['a*'], 'bee')).toBe(false);
  });
});
