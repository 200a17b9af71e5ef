import { PassLoop } from './pass-loop';

describe('PassLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A loop whose passes the test finishes by hand. */
  function loop(intervalMs = 10_000) {
    const finish: Array<(again: boolean) => void> = [];
    const l = new PassLoop(() => new Promise<boolean>((resolve) => finish.push(resolve)), intervalMs);
    return { l, finish, passes: () => finish.length };
  }

  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('waits the interval after an idle pass, and wake() cuts the wait short', async () => {
    const { l, finish, passes } = loop();
    l.start();
    jest.advanceTimersByTime(0);
    expect(passes()).toBe(1);
    finish[0]!(false);
    await settle();
    jest.advanceTimersByTime(5_000);
    expect(passes()).toBe(1);
    l.wake();
    jest.advanceTimersByTime(0);
    expect(passes()).toBe(2);
    finish[1]!(false);
    await l.stop();
  });

  it('a wake() during a pass runs one more pass right after it', async () => {
    const { l, finish, passes } = loop();
    l.start();
    jest.advanceTimersByTime(0);
    l.wake();
    l.wake();
    expect(passes()).toBe(1);
    finish[0]!(false);
    await settle();
    jest.advanceTimersByTime(0);
    expect(passes()).toBe(2);
    finish[1]!(false);
    await settle();
    jest.advanceTimersByTime(9_999);
    expect(passes()).toBe(2);
    await l.stop();
  });

  it('after stop(), wake() starts nothing', async () => {
    const { l, finish, passes } = loop();
    l.start();
    jest.advanceTimersByTime(0);
    finish[0]!(false);
    await l.stop();
    l.wake();
    jest.advanceTimersByTime(60_000);
    expect(passes()).toBe(1);
  });

  it('with a gap, a wake() soon after a pass waits until the gap has passed since that pass started', async () => {
    const finish: Array<(again: boolean) => void> = [];
    const l = new PassLoop(() => new Promise<boolean>((resolve) => finish.push(resolve)), 10_000, 250);
    l.start();
    jest.advanceTimersByTime(0);
    expect(finish).toHaveLength(1);
    jest.advanceTimersByTime(100);
    finish[0]!(false);
    await settle();
    l.wake();
    l.wake();
    jest.advanceTimersByTime(149);
    expect(finish).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(finish).toHaveLength(2);
    // A nudge during a pass: the next one starts the gap after this one started, not at once.
    l.wake();
    jest.advanceTimersByTime(50);
    finish[1]!(false);
    await settle();
    jest.advanceTimersByTime(199);
    expect(finish).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(finish).toHaveLength(3);
    finish[2]!(false);
    await l.stop();
  });

  it('with a gap, a full pass still goes on at once, and a wake() long after the last pass runs at once', async () => {
    const finish: Array<(again: boolean) => void> = [];
    const l = new PassLoop(() => new Promise<boolean>((resolve) => finish.push(resolve)), 10_000, 250);
    l.start();
    jest.advanceTimersByTime(0);
    finish[0]!(true);
    await settle();
    jest.advanceTimersByTime(0);
    expect(finish).toHaveLength(2);
    finish[1]!(false);
    await settle();
    jest.advanceTimersByTime(5_000);
    l.wake();
    jest.advanceTimersByTime(0);
    expect(finish).toHaveLength(3);
    finish[2]!(false);
    await l.stop();
  });
});
