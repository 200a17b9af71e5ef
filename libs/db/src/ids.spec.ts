import { newId, newTimeOrderedId, timeOfOrderedId } from './ids';

describe(newId.name, () => {
  it('gives the prefix and 24 lowercase hex characters', () => {
    expect(newId('cns-')).toMatch(/^cns-[0-9a-f]{24}$/);
  });

  it('never repeats across many pool refills', () => {
    const ids = Array.from({ length: 10_000 }, () => newId('x-'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws fresh bytes for every id: no two consecutive ids share their 12 bytes even in part', () => {
    // A pool that failed to advance would repeat ids; one that overlapped would share halves.
    const halves = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const hex = newId('');
      halves.add(hex.slice(0, 12));
      halves.add(hex.slice(12));
    }
    expect(halves.size).toBe(4_000);
  });
});

describe(newTimeOrderedId.name, () => {
  it('gives the prefix, 12 hex of the millisecond time and 12 random hex: the format of newId', () => {
    const at = Date.UTC(2026, 10, 27, 14, 0, 0, 123);
    const sut = newTimeOrderedId('cns-', new Date(at));
    expect(sut).toMatch(/^cns-[0-9a-f]{24}$/);
    expect(sut.slice(4, 16)).toBe(at.toString(16).padStart(12, '0'));
    expect(timeOfOrderedId(sut, 'cns-')).toBe(at);
  });

  it('sorts ids of later milliseconds after earlier ones as strings (as PostgreSQL orders them under COLLATE "C")', () => {
    const base = Date.UTC(2026, 0, 1);
    const ids = [5, 1, 1000, 86_400_000, 2].map((d) => newTimeOrderedId('cns-', base + d));
    const byTime = [...ids].sort((a, b) => timeOfOrderedId(a, 'cns-') - timeOfOrderedId(b, 'cns-'));
    expect([...ids].sort()).toEqual(byTime);
  });

  it('gives distinct ids within one millisecond', () => {
    const ids = Array.from({ length: 5_000 }, () => newTimeOrderedId('cns-', 1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a time that 12 hex characters cannot hold', () => {
    expect(() => newTimeOrderedId('cns-', -1)).toThrow(RangeError);
    expect(() => newTimeOrderedId('cns-', 2 ** 48)).toThrow(RangeError);
  });
});
