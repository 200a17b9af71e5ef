import { newId } from './ids';

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
