import { retryDelayMs, retrySchedule } from './retry-schedule';

describe(retryDelayMs.name, () => {
  it('doubles the wait after each failed attempt, up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });

  it('refuses an attempt number below 1', () => {
    expect(() => retryDelayMs(0, 1000, 5000)).toThrow(RangeError);
  });
});

describe(retrySchedule.name, () => {
  it('spreads the default 8 attempts over more than four hours', () => {
    const sut = retrySchedule(8, 120_000, 6 * 3600_000);

    expect(sut).toHaveLength(7);
    expect(sut.map((ms) => ms / 60_000)).toEqual([2, 4, 8, 16, 32, 64, 128]);
    expect(sut.reduce((a, b) => a + b, 0)).toBeGreaterThan(4 * 3600_000);
  });
});
