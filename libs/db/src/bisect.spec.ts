import { bisectOnRowFault, type BisectOptions } from './bisect';

class RowFault extends Error {
  constructor(readonly row: number) {
    super(`row ${row} is bad`);
  }
}
const isRowFault = (err: unknown) => err instanceof RowFault;
const lost = new Error('connection lost');

/**
 * A store that commits a part whole or not at all: it refuses a part holding a bad row (a RowFault
 * naming the first), fails every write whose part `down` matches, and answers each row doubled.
 */
function store(bad: number[], down: (part: number[]) => boolean = () => false) {
  const committed: number[] = [];
  const writes: number[][] = [];
  const write = async (part: number[]): Promise<number[]> => {
    writes.push(part);
    if (down(part)) throw lost;
    const faulty = part.find((r) => bad.includes(r));
    if (faulty !== undefined) throw new RowFault(faulty);
    committed.push(...part);
    return part.map((r) => r * 2);
  };
  return { write, committed, writes };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe(bisectOnRowFault.name, () => {
  it('writes a good batch once, with the value the write answered for each row', async () => {
    const s = store([]);
    expect(await bisectOnRowFault(range(4), s.write, { isRowFault })).toEqual([0, 2, 4, 6].map((value) => ({ ok: true, value })));
    expect(s.writes).toEqual([[0, 1, 2, 3]]);
  });

  it('isolates a fault in one row: exactly that row fails, with its own error, and every other row commits', async () => {
    const s = store([11]);
    const outcomes = await bisectOnRowFault(range(25), s.write, { isRowFault });

    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, error: new RowFault(11) }]);
    expect(outcomes[11]).toEqual({ ok: false, error: expect.objectContaining({ row: 11 }) });
    expect(s.committed.sort((a, b) => a - b)).toEqual(range(25).filter((r) => r !== 11));
    // Halving, not a row at a time: the whole batch, then two writes per level down to the bad row.
    expect(s.writes.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(25)));
    expect(s.writes.filter((w) => w.length === 1 && w[0] === 11)).toHaveLength(1);
  });

  it('isolates several faulty rows, at the edges too', async () => {
    const s = store([0, 7, 15]);
    const outcomes = await bisectOnRowFault(range(16), s.write, { isRowFault });

    expect(outcomes.map((o, i) => (o.ok ? null : [i, (o.error as RowFault).row])).filter(Boolean)).toEqual([
      [0, 0],
      [7, 7],
      [15, 15],
    ]);
    expect(s.committed).toHaveLength(13);
  });

  it('gives every row its own error when every row is faulty', async () => {
    const s = store(range(6));
    const outcomes = await bisectOnRowFault(range(6), s.write, { isRowFault });

    expect(outcomes).toEqual(range(6).map((r) => ({ ok: false, error: new RowFault(r) })));
    expect(outcomes.map((o) => (o.ok ? -1 : (o.error as RowFault).row))).toEqual(range(6));
    expect(s.committed).toEqual([]);
  });

  it('writes nothing for an empty batch', async () => {
    const s = store([]);
    expect(await bisectOnRowFault([], s.write, { isRowFault })).toEqual([]);
    expect(s.writes).toEqual([]);
  });

  it('a lone faulty row is not split further: its error is its outcome', async () => {
    const s = store([0]);
    expect(await bisectOnRowFault([0], s.write, { isRowFault })).toEqual([{ ok: false, error: new RowFault(0) }]);
    expect(s.writes).toEqual([[0]]);
  });

  describe('a failure no row caused (a lost connection)', () => {
    it('propagates from the whole batch without splitting it', async () => {
      const s = store([], () => true);
      await expect(bisectOnRowFault(range(8), s.write, { isRowFault })).rejects.toBe(lost);
      expect(s.writes).toEqual([range(8)]);
    });

    it('propagates when met while splitting, and nothing more is written', async () => {
      // The row fault splits the batch; the first half then meets the lost connection.
      const s = store([6], (part) => part.length === 4);
      await expect(bisectOnRowFault(range(8), s.write, { isRowFault })).rejects.toBe(lost);
      expect(s.writes).toEqual([range(8), [0, 1, 2, 3]]);
    });

    const failPart: BisectOptions<number> = { isRowFault, otherFault: 'fail-part' };

    it("with 'fail-part', is every row's outcome when the whole batch meets it, without splitting", async () => {
      const s = store([3], () => true);
      expect(await bisectOnRowFault(range(5), s.write, failPart)).toEqual(range(5).map(() => ({ ok: false, error: lost })));
      expect(s.writes).toEqual([range(5)]);
    });

    it("with 'fail-part', fails only the rows of the part that met it, and the other parts are still written", async () => {
      const s = store([6], (part) => part.join() === '0,1,2,3');
      const outcomes = await bisectOnRowFault(range(8), s.write, failPart);

      expect(outcomes.slice(0, 4)).toEqual(range(4).map(() => ({ ok: false, error: lost })));
      expect(outcomes[6]).toEqual({ ok: false, error: new RowFault(6) });
      expect(outcomes.filter((o) => o.ok).length).toBe(3);
      expect(s.committed.sort()).toEqual([4, 5, 7]);
    });
  });

  it('splits and retries only the rows a partly committed write left uncommitted', async () => {
    // A write that commits its even rows first, then fails on a bad odd row (as the ledger's seal queue
    // can commit one stream's seals before another stream's statement fails).
    const done = new Set<number>();
    const writes: number[][] = [];
    const write = async (part: number[]) => {
      writes.push(part);
      for (const r of part.filter((r) => r % 2 === 0)) done.add(r);
      const odd = part.filter((r) => r % 2 === 1);
      if (odd.includes(5)) throw new RowFault(5);
      for (const r of odd) done.add(r);
    };
    const outcomes = await bisectOnRowFault(range(8), write, { isRowFault, uncommitted: (part) => part.filter((r) => !done.has(r)) });

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true, false, true, true]);
    expect(writes[1]).toEqual([1, 3]);
    expect(
      writes
        .slice(1)
        .flat()
        .filter((r) => r % 2 === 0),
    ).toEqual([]);
  });
});
