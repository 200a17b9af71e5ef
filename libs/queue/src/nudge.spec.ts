import { OUTBOX_NUDGE_CHANNEL, OutboxNudger, parseNudge } from './nudge';

describe('OutboxNudger', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function nudger(gapMs = 50) {
    const sent: Array<[string, string]> = [];
    const redis = { publish: jest.fn(async (channel: string, message: string) => sent.push([channel, message])) };
    return { sent, n: new OutboxNudger(redis as never, 'verdict', gapMs, () => Date.now()) };
  }

  it('publishes the first nudge at once, on the nudge channel, with the owner', () => {
    const { sent, n } = nudger();
    n.nudge();
    expect(sent).toEqual([[OUTBOX_NUDGE_CHANNEL, 'verdict']]);
  });

  it('folds a burst into one trailing nudge at the end of the gap', () => {
    const { sent, n } = nudger(50);
    n.nudge();
    for (let i = 0; i < 100; i++) n.nudge();
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(49);
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(sent).toHaveLength(2);
    // Quiet again: the next one goes out at once.
    jest.advanceTimersByTime(100);
    n.nudge();
    expect(sent).toHaveLength(3);
  });

  it('never throws when Redis refuses, and close() drops a waiting nudge', async () => {
    const redis = { publish: jest.fn(async () => Promise.reject(new Error('down'))) };
    const n = new OutboxNudger(redis as never, 'registry', 50, () => Date.now());
    expect(() => n.nudge()).not.toThrow();
    n.nudge();
    n.close();
    jest.advanceTimersByTime(1000);
    expect(redis.publish).toHaveBeenCalledTimes(1);
  });
});

describe('parseNudge', () => {
  it('knows the two owners and nothing else', () => {
    expect(parseNudge('registry')).toBe('registry');
    expect(parseNudge('verdict')).toBe('verdict');
    expect(parseNudge('ledger')).toBeUndefined();
    expect(parseNudge('')).toBeUndefined();
  });
});
