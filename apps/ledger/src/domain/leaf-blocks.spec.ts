import { LeafBlocks } from './leaf-blocks';
import { FAN } from './merkle-layout';

const hashes = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `h${from + i + 1}`);

describe(LeafBlocks.name, () => {
  it('answers each block an unbroken run of appends completes, with its fact hashes in order', () => {
    const sut = new LeafBlocks();
    expect(sut.append('s', 0, hashes(0, 10))).toEqual([]);
    expect(sut.append('s', 10, hashes(10, 40))).toEqual([
      { idx: 0, factHashes: hashes(0, FAN) },
      { idx: 1, factHashes: hashes(FAN, 2 * FAN) },
    ]);
    expect(sut.append('s', 40, hashes(40, 48))).toEqual([{ idx: 2, factHashes: hashes(2 * FAN, 3 * FAN) }]);
  });

  it('answers null for an append that does not continue the run, and restarts at the next block boundary', () => {
    const sut = new LeafBlocks();
    expect(sut.append('s', 0, hashes(0, 10))).toEqual([]);
    // Another replica sealed 10..12: this process's view has a gap.
    expect(sut.append('s', 12, hashes(12, 20))).toBeNull();
    expect(sut.append('s', 20, hashes(20, 32))).toBeNull();
    expect(sut.append('s', 32, hashes(32, 48))).toEqual([{ idx: 2, factHashes: hashes(32, 48) }]);
  });

  it('starts no run in the middle of a block: a stream first seen there is filled from the database', () => {
    const sut = new LeafBlocks();
    expect(sut.append('s', 5, hashes(5, 20))).toBeNull();
    expect(sut.append('t', 16, hashes(16, 33))).toEqual([{ idx: 1, factHashes: hashes(16, 32) }]);
  });

  it('keeps streams apart, and forgets the least recently appended beyond its bound', () => {
    const sut = new LeafBlocks(2);
    sut.append('a', 0, hashes(0, 1));
    sut.append('b', 0, hashes(0, 1));
    sut.append('a', 1, hashes(1, 2));
    sut.append('c', 0, hashes(0, 1));
    expect(sut.append('b', 1, hashes(1, 2))).toBeNull();
    expect(sut.append('a', 2, hashes(2, FAN))).toEqual([{ idx: 0, factHashes: hashes(0, FAN) }]);
    sut.forget('a');
    expect(sut.append('a', FAN, hashes(FAN, FAN + 1))).toEqual([]);
  });
});
