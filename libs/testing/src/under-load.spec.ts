import { whileRunning } from './under-load';

describe('whileRunning', () => {
  it('runs rounds until the work is done and counts those that completed meanwhile', async () => {
    let release: () => void = () => undefined;
    const seen: number[] = [];
    const out = await whileRunning(
      () => new Promise<string>((resolve) => (release = () => resolve('done'))),
      async (i) => {
        seen.push(i);
        await new Promise((r) => setImmediate(r));
        if (i === 3) release();
      },
    );
    expect(out.result).toBe('done');
    expect(seen.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(out.rounds).toBe(seen.length);
    expect(out.roundsDuring).toBeGreaterThanOrEqual(3);
  });

  it('fails when a round fails, after the work finished', async () => {
    let finished = false;
    await expect(
      whileRunning(
        async () => {
          await new Promise((r) => setTimeout(r, 5));
          finished = true;
        },
        async () => {
          throw new Error('refused');
        },
      ),
    ).rejects.toThrow('refused');
    expect(finished).toBe(true);
  });
});
