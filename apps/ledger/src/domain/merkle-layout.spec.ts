import { perfectSubtrees, inclusionRanges, consistencyRanges } from '@arbiter/merkle';
import { BAND, completedNodes, FAN, isStoredLevel, mergeRanges, sourceLevel, sourceRange } from './merkle-layout';

describe('merkle-layout', () => {
  it('folds every subtree from at most 2^BAND hashes of its source level', () => {
    for (let level = 0; level <= 40; level++) {
      const { start, end } = sourceRange({ level, index: 3 });
      expect(end - start).toBeLessThanOrEqual(FAN);
      expect(sourceLevel(level) % BAND).toBe(0);
      expect(isStoredLevel(level)).toBe(level >= BAND && level % BAND === 0);
      // The source range covers exactly the subtree's leaves.
      expect(start * 2 ** sourceLevel(level)).toBe(3 * 2 ** level);
      expect(end * 2 ** sourceLevel(level)).toBe(4 * 2 ** level);
    }
  });

  it('names the stored nodes a growth completes', () => {
    expect(completedNodes(8, 0, 255)).toEqual({ start: 0, end: 0 });
    expect(completedNodes(8, 255, 256)).toEqual({ start: 0, end: 1 });
    expect(completedNodes(8, 256, 1000)).toEqual({ start: 1, end: 3 });
    expect(completedNodes(16, 65_000, 65_536)).toEqual({ start: 0, end: 1 });
  });

  it('merges overlapping and adjacent ranges, dropping empty ones', () => {
    expect(
      mergeRanges([
        { start: 5, end: 7 },
        { start: 0, end: 2 },
        { start: 2, end: 3 },
        { start: 6, end: 9 },
        { start: 4, end: 4 },
      ]),
    ).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 9 },
    ]);
  });

  it('keeps proofs of a 1,000,000-leaf tree to a few hundred source hashes', () => {
    const n = 1_000_000;
    const cost = (ranges: Array<{ start: number; end: number }>) =>
      [...ranges, { start: 0, end: n }].flatMap(perfectSubtrees).reduce((sum, s) => sum + sourceRange(s).end - sourceRange(s).start, 0);
    for (const m of [0, 1, 255, 256, 500_000, 999_999]) expect(cost(inclusionRanges(m, n))).toBeLessThan(200);
    expect(cost(consistencyRanges(123_457, n))).toBeLessThan(300);
  });
});
