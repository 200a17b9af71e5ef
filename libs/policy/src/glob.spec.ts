import fc from 'fast-check';
import { ActionIndex } from './action-index';
import { compileGlob, compileGlobList, literalPrefix } from './glob';

const GLOB_UNIT = fc.constantFrom('a', 'b', '.', '*', '?', '😀');
const TEXT_UNIT = fc.constantFrom('a', 'b', '.', '😀', '\ud83d', '*', '?');

/** The glob semantics by dynamic programming over code points (the definition, not the algorithm). */
function reference(glob: string, s: string): boolean {
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
}

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

  it('matches like a reference implementation (dynamic programming over code points) on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: GLOB_UNIT, maxLength: 10 }), fc.string({ unit: TEXT_UNIT, maxLength: 14 }), (glob, s) => {
        expect(compileGlob(glob)(s)).toBe(reference(glob, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('matches like the reference on strings built to match (so that both answers occur)', () => {
    // A string derived from the glob: each `*` replaced by a random run, each `?` by one code point,
    // then possibly mutated by one edit.
    const derived = fc
      .tuple(
        fc.string({ unit: GLOB_UNIT, minLength: 1, maxLength: 10 }),
        fc.array(fc.string({ unit: TEXT_UNIT, maxLength: 4 }), { minLength: 10, maxLength: 10 }),
        TEXT_UNIT,
        fc.nat(20),
        fc.boolean(),
      )
      .map(([glob, runs, one, at, mutate]) => {
        let s = '';
        let r = 0;
        for (const ch of glob) s += ch === '*' ? runs[r++ % runs.length] : ch === '?' ? one : ch;
        if (mutate) {
          const cps = [...s];
          cps.splice(at % (cps.length + 1), at % 3 === 0 ? 1 : 0, ...(at % 2 === 0 ? [one] : []));
          s = cps.join('');
        }
        return { glob, s };
      });
    fc.assert(
      fc.property(derived, ({ glob, s }) => {
        expect(compileGlob(glob)(s)).toBe(reference(glob, s));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the reference on pieces longer than one machine word (several words of Shift-And state)', () => {
    const long = fc.string({ unit: fc.constantFrom('a', 'b', '?'), minLength: 30, maxLength: 80 });
    fc.assert(
      fc.property(long, fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 120 }), fc.boolean(), (piece, s, embed) => {
        const glob = `*${piece}*`;
        const text = embed ? `ab${piece.replaceAll('?', 'b')}ba${s}` : s;
        expect(compileGlob(glob)(text)).toBe(reference(glob, text));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['*a*a*a*a*a*b', false],
    ['*a*a*b', false],
    ['*a?a*a?a*b', false],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', false],
    ['*?a?*a?*?b', false],
  ])('settles %s against 2,000 characters of "a" (a backtracking matcher would not finish)', (glob, expected) => {
    const resource = 'a'.repeat(2000);
    const sut = compileGlob(glob);
    expect(sut(resource)).toBe(expected);
    expect(sut(`${resource}b`)).toBe(true);
    expect(sut(`${resource}c`)).toBe(false);
  });

  it('reads `?` as one code point on either side of a `*`, and never splits a surrogate pair', () => {
    expect(compileGlob('*?')('x😀')).toBe(true);
    expect(compileGlob('?*')('😀x')).toBe(true);
    expect(compileGlob('*?😀?*')('a😀😀😀b')).toBe(true);
    expect(compileGlob('*??*')('😀')).toBe(false);
    expect(compileGlob('a*??c')('a😀c')).toBe(false);
    expect(compileGlob('a*?c')('a😀c')).toBe(true);
    // A glob holding half of a pair never matches inside the pair (as a RegExp with the u flag reads it).
    expect(compileGlob('*\ude00')('😀')).toBe(false);
    expect(compileGlob('*\ude00*')('x😀x')).toBe(false);
    expect(compileGlob('\ud83d*')('😀')).toBe(false);
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
          const expected = rules.flatMap((globs, i) =>
            !globs || globs.length === 0 || globs.some((g) => compileGlob(g)(action)) ? [i] : [],
          );
          expect(sut.lookup(action).sort((a, b) => a - b)).toEqual(expected);
        },
      ),
    );
  });
});
