import { compilePolicy, evaluate } from '@arbiter/policy';
import { benchmarkFixture } from './benchmark-fixture';

describe(benchmarkFixture.name, () => {
  it.each([10, 100, 1000])('makes %i rules that compile, and check requests that all complete', (n) => {
    const sut = benchmarkFixture(n);
    expect(sut.rules).toHaveLength(n);
    const policy = compilePolicy(sut.rules, sut.overrides, sut.policy);
    const verdicts = new Set<string>();
    for (const req of sut.requests) {
      const r = evaluate(policy, req, sut.now);
      expect(r.status).toBe('complete');
      if (r.status === 'complete') verdicts.add(r.verdict);
    }
    if (n >= 100) expect(verdicts.size).toBeGreaterThan(2);
  });

  it('is the same on every call for a seed, and different for another seed', () => {
    expect(benchmarkFixture(50)).toEqual(benchmarkFixture(50));
    expect(benchmarkFixture(50, 2).rules).not.toEqual(benchmarkFixture(50).rules);
  });

  it('covers every severity, selector widths, overrides in and out of effect', () => {
    const sut = benchmarkFixture(200);
    expect(new Set(sut.rules.map((r) => r.severity))).toEqual(new Set(['MANDATORY', 'REQUIRES_APPROVAL', 'ADVISORY', 'ALLOW']));
    expect(new Set(sut.rules.map((r) => Object.keys(r.selector).length))).toEqual(new Set([0, 1, 2, 3]));
    const active = sut.overrides.filter((o) => Date.parse(o.expires_at!) > sut.now);
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(sut.overrides.length);
  });
});
