import { compareRowIds } from './seal-outbox';

describe(compareRowIds.name, () => {
  it('orders decimal row ids as numbers, across lengths and beyond 2^53', () => {
    const ids = ['10', '9', '100', '11', '1', '9007199254740993', '9007199254740992', '123456789012345678'];
    expect([...ids].sort(compareRowIds)).toEqual([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)));
    expect(compareRowIds('42', '42')).toBe(0);
  });
});
