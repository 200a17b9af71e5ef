import fc from 'fast-check';
import { ActionIndex } from './action-index';
import { compileGlob, compileGlobList, literalPrefix } from './glob';

describe(compileGlob.name, () => {
  it.each([
    ['payments.transfer', 'payments.transfer', true],
    ['payments.transfer', 'payments.transfers', false],
    ['payments.*', 'payments.transfer', true],
    ['payments.*', 'payments.transfer.intl', true],
    ['payments.*', 'payments.', true],
    ['payments.*', 'payments', false],
    ['*', '', true],
    ['*', 'anything at all', true],
    ['*.transfer', 'payments.transfer', true],
    ['*.transfer', 'payments.refund', false],
    ['pay*.t*r', 'payments.transfer', true],
    ['pay*.t*r', 'payments.transfers', false],
    ['acct:?u/*', 'acct:eu/123', true],
    ['acct:?u/*', 'acct:xeu/123', false],
    ['a?c', 'a😀c', true],
    ['a??c', 'a😀c', false],
    ['Payments.*', 'payments.transfer', false],
    ['a.b', 'axb', false],
    ['(x)+[y]$', '(x)+[y]$', true],
    ['a/b*', 'a/b/c', true],
    ['a**b', 'a-long-run-b', true],
    ['x*', 'y-x', false],
  ])('%s against %s gives %s', (glob, s, expected) => {
    const sut = compileGlob(glob);
    expect(sut(s)).toBe(expected);
  });

  it('matches like a reference implementation on arbitrary strings', () => {
    const alphabet = fc.constantFrom('a', 'b', '.', '*', '?');
    const reference = (glob: string, s: string): boolean => {
      // Dynamic programming over glob and string positions.
      const g = [...glob];
      const t = [...s];
      const dp = Array.from({ length: g.length + 1 }, () => new Array<boolean>(t.length + 1).fill(false));
      dp[0][0] = true;
      for (let i = 1; i <= g.length; i++) {
        dp[i][0] = dp[i - 1][0] && g[i - 1] === '*';
        for (let j = 1; j <= t.length; j++) {
          if (g[i - 1] === '*') dp[i][j] = dp[i - 1][j] || dp[i][j - 1];
          else dp[i][j] = dp[i - 1][j - 1] && (g[i - 1] === '?' || g[i - 1] === t[j - 1]);
        }
      }
      return dp[g.length][t.length];
    };
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 8 }), (glob, s) => {
        expect(compileGlob(glob)(s)).toBe(reference(glob, s));
      }),
    );
  });
});

describe(compileGlobList.name, () => {
  it('treats an absent or empty list, or one containing *, as matching everything (null)', () => {
    expect(compileGlobList(undefined)).toBeNull();
    expect(compileGlobList(null)).toBeNull();
    expect(compileGlobList([])).toBeNull();
    expect(compileGlobList(['a', '*'])).toBeNull();
  });

  it('matches when any glob of the list matches', () => {
    const sut = compileGlobList(['svc:billing', 'dataset:*'])!;
    expect(sut('svc:billing')).toBe(true);
    expect(sut('dataset:hr')).toBe(true);
    expect(sut('svc:web')).toBe(false);
  });
});

describe(literalPrefix.name, () => {
  it('is the text before the first wildcard', () => {
    expect(literalPrefix('payments.*')).toBe('payments.');
    expect(literalPrefix('a?b*')).toBe('a');
    expect(literalPrefix('exact')).toBe('exact');
    expect(literalPrefix('*x')).toBe('');
  });
});

describe(ActionIndex.name, () => {
  it('finds exact, prefix-glob, leading-wildcard and unrestricted rules, each once', () => {
    const sut = new ActionIndex();
    sut.add(0, ['payments.transfer']);
    sut.add(1, ['payments.*']);
    sut.add(2, ['*.transfer']);
    sut.add(3, undefined);
    sut.add(4, ['payments.transfer', 'payments.*', 'pay*']);
    sut.add(5, ['data.*']);
    sut.add(6, []);
    expect(sut.lookup('payments.transfer').sort()).toEqual([0, 1, 2, 3, 4, 6]);
    expect(sut.lookup('data.export').sort()).toEqual([3, 5, 6]);
    expect(sut.lookup('').sort()).toEqual([3, 6]);
  });

  it('returns exactly the rules a linear scan of the globs would', () => {
    const glob = fc.string({ unit: fc.constantFrom('a', 'b', '.', '*', '?'), maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.array(glob, { maxLength: 3 }), { nil: undefined }), { maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 6 }),
        (rules, action) => {
          const sut = new ActionIndex();
          rules.forEach((globs, i) => sut.add(i, globs));
          const expected = rules.flatMap((globs, i) => (!globs || globs.length === 0 || globs.some((g) => compileGlob(g)(action)) ? [i] : []));
          expect(sut.lookup(action).sort((a, b) => a - b)).toEqual(expected);
        },
      ),
    );
  });
});
