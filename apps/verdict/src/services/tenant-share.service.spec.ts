import { TenantGate, TenantShareExceededError, tenantShared } from './tenant-share.service';
import type { WindowStore } from './windows.service';

/** A promise and the functions that settle it. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('TenantGate', () => {
  it('lets a tenant run up to its limit at once, then in order as runs finish', async () => {
    const gate = new TenantGate(2, 10_000);
    const held = [deferred(), deferred(), deferred()];
    const order: number[] = [];
    const runs = held.map((d, i) =>
      gate.run('ten-a', async () => {
        order.push(i);
        await d.promise;
      }),
    );
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(gate.inProgress('ten-a')).toBe(2);
    held[1].resolve();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1, 2]);
    held[0].resolve();
    held[2].resolve();
    await Promise.all(runs);
    expect(gate.inProgress('ten-a')).toBe(0);
  });

  it("never makes a tenant under its limit wait for another tenant's runs", async () => {
    const gate = new TenantGate(1, 10_000);
    const hog = deferred();
    const hogging = gate.run('ten-a', () => hog.promise);
    const queued = gate.run('ten-a', async () => 'late');
    await expect(gate.run('ten-b', async () => 'b at once')).resolves.toBe('b at once');
    hog.resolve();
    await hogging;
    await expect(queued).resolves.toBe('late');
  });

  it('fails a run that waited past its wait, and frees its place in the queue', async () => {
    const gate = new TenantGate(1, 20);
    const hog = deferred();
    const hogging = gate.run('ten-a', () => hog.promise);
    await expect(gate.run('ten-a', async () => 'never')).rejects.toBeInstanceOf(TenantShareExceededError);
    hog.resolve();
    await hogging;
    expect(gate.inProgress('ten-a')).toBe(0);
    await expect(gate.run('ten-a', async () => 'again')).resolves.toBe('again');
  });

  it('frees its place when a run fails', async () => {
    const gate = new TenantGate(1, 10_000);
    await expect(gate.run('ten-a', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    await expect(gate.run('ten-a', async () => 'next')).resolves.toBe('next');
  });
});

describe('tenantShared', () => {
  it("holds a tenant's reads and takes to its share, never its give-backs nor another tenant's calls", async () => {
    const peeks = deferred<number[]>();
    const calls: string[] = [];
    const store: WindowStore = {
      take: async (t) => {
        calls.push(`take ${t}`);
        return { taken: true, used_before: [] };
      },
      peek: (t) => {
        calls.push(`peek ${t}`);
        return t === 'ten-a' ? peeks.promise : Promise.resolve([0]);
      },
      priors: async (t) => {
        calls.push(`priors ${t}`);
        return [];
      },
      giveBack: async (t) => {
        calls.push(`giveBack ${t}`);
        return [];
      },
    };
    const shared = tenantShared(store, { reads: 1, takes: 1, waitMs: 20 });
    const tenantA = 'ten-a' as Parameters<WindowStore['peek']>[0];
    const tenantB = 'ten-b' as Parameters<WindowStore['peek']>[0];
    const first = shared.peek(tenantA, []);
    await expect(shared.priors(tenantA, [])).rejects.toBeInstanceOf(TenantShareExceededError);
    await expect(shared.peek(tenantB, [])).resolves.toEqual([0]);
    await expect(shared.giveBack(tenantA, 'cns-1')).resolves.toEqual([]);
    await expect(shared.take(tenantA, 'cns-2', [], [])).resolves.toEqual({ taken: true, used_before: [] });
    peeks.resolve([3]);
    await expect(first).resolves.toEqual([3]);
    expect(calls).toEqual(['peek ten-a', 'peek ten-b', 'giveBack ten-a', 'take ten-a']);
  });
});
