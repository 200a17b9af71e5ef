import pino from 'pino';
import { BatchPruner, type PruneBatch } from './batch-pruner';

const silent = pino({ level: 'silent' });
const every = (prune: PruneBatch) => new BatchPruner(prune, silent, { intervalMs: 60_000, what: 'pruning' });

describe(BatchPruner.name, () => {
  it('deletes batch after batch until one deletes nothing in any table', async () => {
    const answers = [
      { totals: 3, events: 1000 },
      { totals: 0, events: 200 },
      { totals: 0, events: 0 },
    ];
    const calls: number[] = [];
    expect(await every(async (batch) => (calls.push(batch), answers.shift() ?? { totals: 0, events: 0 })).round()).toBe(1203);
    expect(calls).toEqual([1000, 1000, 1000]);
  });

  it("stops at the round's bound, and a failing round resolves (the next one tries again)", async () => {
    let n = 0;
    expect(await every(async () => (n++, { totals: 0, events: 1000 })).round()).toBe(100_000);
    expect(n).toBe(100);
    await expect(every(() => Promise.reject(new Error('down'))).round()).resolves.toBe(0);
  });

  it('runs rounds on its timer until stopped', async () => {
    let rounds = 0;
    const pruner = new BatchPruner(async () => (rounds++, {}), silent, { intervalMs: 5, what: 'pruning' });
    pruner.start();
    while (rounds < 2) await new Promise((r) => setTimeout(r, 5));
    await pruner.stop();
    const after = rounds;
    await new Promise((r) => setTimeout(r, 30));
    expect(rounds).toBe(after);
  });
});
