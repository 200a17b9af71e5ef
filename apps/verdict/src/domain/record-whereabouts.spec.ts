import { newTimeOrderedId } from '@arbiter/db';
import { AFTER_MS, BEFORE_MS, keepUntilRanges } from './record-whereabouts';

const DAY = 86_400_000;

describe(keepUntilRanges.name, () => {
  const at = Date.parse('2026-11-28T12:00:00.000Z');
  const id = newTimeOrderedId('cns-', at);

  it("answers one range per distinct retention around the id's time plus it, in order", () => {
    expect(keepUntilRanges(id, [90 * DAY, 30 * DAY, 90 * DAY])).toEqual([
      [new Date(at + 30 * DAY - BEFORE_MS), new Date(at + 30 * DAY + AFTER_MS)],
      [new Date(at + 90 * DAY - BEFORE_MS), new Date(at + 90 * DAY + AFTER_MS)],
    ]);
  });

  it('holds the keep_until of a record requested a little after its id was made', () => {
    const [[from, to]] = keepUntilRanges(id, [90 * DAY])!;
    const keepUntil = at + 2_500 + 90 * DAY;
    expect(from.getTime()).toBeLessThanOrEqual(keepUntil);
    expect(to.getTime()).toBeGreaterThanOrEqual(keepUntil);
  });

  it.each([
    ['an id of another form', 'cns-1'],
    ['another prefix', newTimeOrderedId('apr-', at)],
    ['an id with characters no id has', `cns-${'Z'.repeat(28)}`],
  ])('answers null for %s (the caller looks everywhere)', (_what, other) => {
    expect(keepUntilRanges(other, [90 * DAY])).toBeNull();
  });

  it('answers null without a retention', () => {
    expect(keepUntilRanges(id, [])).toBeNull();
  });
});
