import { relevance, words } from './relevance';

describe(relevance.name, () => {
  const op = { text: 'deploy billing on friday' };

  it('finds an invariant relevant when it shares a stemmed word', () => {
    expect(relevance({ sharedTerms: ['deploy', 'friday'], appliesTo: null }, op)).toEqual({
      matched_by: 'text',
      matched_terms: ['deploy', 'friday'],
    });
    expect(relevance({ sharedTerms: [], appliesTo: null }, op)).toBeNull();
  });

  it('lets a named action decide for a rule with applies_to, whatever its text', () => {
    const appliesTo = { actions: ['payments.*'] };
    expect(relevance({ sharedTerms: [], appliesTo }, { ...op, action: 'payments.transfer' })).toEqual({
      matched_by: 'applies_to',
      matched_terms: [],
    });
    expect(relevance({ sharedTerms: ['deploy'], appliesTo }, { ...op, action: 'deploy.service' })).toBeNull();
  });

  it('does not hold an unnamed part against the rule', () => {
    const appliesTo = { actions: ['payments.*'], resources: ['account:*'] };
    expect(relevance({ sharedTerms: [], appliesTo }, { ...op, action: 'payments.transfer' })).not.toBeNull();
    expect(relevance({ sharedTerms: [], appliesTo }, { ...op, resource: 'ledger:1' })).toBeNull();
  });

  it('matches words of the intended action against listed globs when no action is named', () => {
    const appliesTo = { resources: ['db.*'] };
    expect(relevance({ sharedTerms: [], appliesTo }, { text: 'drop db.users, now' })).toEqual({
      matched_by: 'applies_to',
      matched_terms: [],
    });
    expect(relevance({ sharedTerms: [], appliesTo }, { text: 'drop the cache' })).toBeNull();
    expect(relevance({ sharedTerms: ['drop'], appliesTo }, { text: 'drop the cache' })).toEqual({
      matched_by: 'text',
      matched_terms: ['drop'],
    });
  });
});

describe(words.name, () => {
  it('splits on whitespace and trims punctuation', () => {
    expect(words('  "Deploy", db.users!  ok ')).toEqual(['Deploy', 'db.users', 'ok']);
  });

  it('trims in one pass over each end, whatever runs of punctuation a word holds', () => {
    const inner = `a${'!'.repeat(20_000)}a`;
    const sut = words(`${inner} ,x😀y, «x» 😀`);
    expect(sut.map((w) => w.length)).toEqual([inner.length, 4, 1]);
    expect(sut.slice(1)).toEqual(['x😀y', 'x']);
    expect(words('!!!')).toEqual([]);
  });
});
