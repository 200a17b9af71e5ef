import { parseTimeKeyset, timeKeysetCursor } from './pagination';

describe('the time keyset of the verdict lists', () => {
  it('reads no position from no cursor, and round-trips its own', () => {
    expect(parseTimeKeyset(undefined)).toBeUndefined();
    expect(parseTimeKeyset('')).toBeUndefined();
    const cursor = timeKeysetCursor({ requested_at: '2026-03-01T00:00:00.001Z', id: 'apr-9' });
    expect(parseTimeKeyset(cursor)).toEqual({ requested_at: new Date('2026-03-01T00:00:00.001Z'), id: 'apr-9' });
  });

  it('refuses, as invalid_cursor, what it did not make: not base64 JSON, an array, a bad time, no id', () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      '%%%',
      encoded([1]),
      encoded({ t: 'yesterday', i: 'apr-1' }),
      encoded({ t: 1, i: 'apr-1' }),
      encoded({ t: '2026-03-01T00:00:00Z' }),
      encoded({ t: '2026-03-01T00:00:00Z', i: 7 }),
    ]) {
      expect(() => parseTimeKeyset(cursor)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_cursor' }));
    }
  });
});
