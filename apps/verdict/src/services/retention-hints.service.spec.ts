import pino from 'pino';
import { RetentionHints } from './retention-hints.service';

const DAY = 86_400_000;

describe(RetentionHints.name, () => {
  it('knows the default retention until the registry answers, then its answer', async () => {
    let answer = Promise.resolve({ consultations: [30 * DAY, 90 * DAY] });
    const hints = new RetentionHints(() => answer);
    expect(hints.current()).toEqual([90 * DAY]);
    await expect(hints.refresh()).resolves.toEqual([30 * DAY, 90 * DAY]);
    expect(hints.current()).toEqual([30 * DAY, 90 * DAY]);
    // A registry that cannot answer leaves what was known; the caller hears of it.
    answer = Promise.reject(new Error('registry down'));
    await expect(hints.refresh()).rejects.toThrow('registry down');
    expect(hints.current()).toEqual([30 * DAY, 90 * DAY]);
  });

  it('warms without failing when the registry is not there yet', async () => {
    const hints = new RetentionHints(() => Promise.reject(new Error('not yet')));
    hints.warm(pino({ level: 'silent' }));
    await new Promise((r) => setImmediate(r));
    expect(hints.current()).toEqual([90 * DAY]);
  });
});
