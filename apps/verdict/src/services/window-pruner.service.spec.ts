import pino from 'pino';
import { WindowPruner, type PrunableWindows } from './window-pruner.service';

const silent = pino({ level: 'silent' });

describe(WindowPruner.name, () => {
  it('deletes batch after batch until one deletes nothing', async () => {
    const answers = [
      { totals: 3, events: 1000 },
      { totals: 0, events: 200 },
      { totals: 0, events: 0 },
    ];
    const calls: number[] = [];
    const store: PrunableWindows = { pruneAnyTenant: async (batch) => (calls.push(batch), answers.shift() ?? { totals: 0, events: 0 }) };
    expect(await new WindowPruner(store, silent, 60_000).round()).toBe(1203);
    expect(calls).toEqual([1000, 1000, 1000]);
  });

  it("stops at the round's bound, and a failing round resolves (the next one tries again)", async () => {
    let n = 0;
    const busy: PrunableWindows = { pruneAnyTenant: async () => (n++, { totals: 0, events: 1000 }) };
    expect(await new WindowPruner(busy, silent, 60_000).round()).toBe(100_000);
    expect(n).toBe(100);
    const failing: PrunableWindows = { pruneAnyTenant: () => Promise.reject(new Error('down')) };
    await expect(new WindowPruner(failing, silent, 60_000).round()).resolves.toBe(0);
  });
});
