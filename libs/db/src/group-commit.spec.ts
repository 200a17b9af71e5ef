import { GroupCommitWriter } from './group-commit';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe(GroupCommitWriter.name, () => {
  it('answers a row only after its batch is flushed, and batches rows arriving meanwhile', async () => {
    const flushes: number[][] = [];
    const gates: ReturnType<typeof deferred>[] = [];
    const sut = new GroupCommitWriter<number>(
      (rows) => {
        flushes.push(rows);
        const g = deferred();
        gates.push(g);
        return g.promise;
      },
      { maxInFlight: 1 },
    );
    let firstDone = false;
    const first = sut.write(1).then(() => (firstDone = true));
    const rest = [2, 3, 4].map((n) => sut.write(n));
    await Promise.resolve();
    expect(flushes).toEqual([[1]]);
    expect(firstDone).toBe(false);
    gates[0].resolve();
    await first;
    expect(flushes).toEqual([[1], [2, 3, 4]]);
    gates[1].resolve();
    await Promise.all(rest);
  });

  it('rejects every row of a failed batch and keeps going', async () => {
    let calls = 0;
    const sut = new GroupCommitWriter<number>(async () => {
      calls++;
      if (calls === 1) throw new Error('disk full');
    });
    await expect(sut.write(1)).rejects.toThrow('disk full');
    await expect(sut.write(2)).resolves.toBeUndefined();
  });

  it('caps batches at maxBatch and waits for everything on close', async () => {
    const sizes: number[] = [];
    const sut = new GroupCommitWriter<number>(
      async () => {
        await new Promise((r) => setTimeout(r, 1));
      },
      { maxBatch: 3, maxInFlight: 1, onBatch: (n) => sizes.push(n) },
    );
    const writes = Array.from({ length: 10 }, (_, i) => sut.write(i));
    await sut.close();
    await Promise.all(writes);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    await expect(sut.write(11)).rejects.toThrow('closed');
  });
});
