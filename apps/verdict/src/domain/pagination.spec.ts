import { parseTimeKeyset, timeKeysetCursor } from './pagination';

describe('the time keyset of the verdict lists', () => {
  it('reads no position from no cursor, and round-trips its own', () => {
    expect(parseTimeKeyset(undefined)).toBeUndefined();
    expect(parseTimeKeyset('')).toBeUndefined();
    const cursor = timeKeysetCursor({ requested_at: '2026-03-01T00:00:00.001Z', id: 'apr-9' });
    expect(parseTimeKeyset(cursor)).toEqual({ requested_at: new Date('2026-03-01T00:00:00.001Z'), id: 'apr-9' });
    // A leap day, an offset and an erasure's commitment as the id are positions the lists make.
    const leap = timeKeysetCursor({ requested_at: '2028-02-29T23:59:59.123456+01:00', id: `hmac-sha256:${'a'.repeat(64)}` });
    expect(parseTimeKeyset(leap)).toEqual({ requested_at: new Date('2028-02-29T22:59:59.123Z'), id: `hmac-sha256:${'a'.repeat(64)}` });
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
      // What PostgreSQL would refuse (a NUL) or read otherwise (a day the month does not have), and no id at all.
      encoded({ t: '2026-11-27T17:27:33Z', i: '\u0000' }),
      encoded({ t: '2026-11-27T17:27:33Z', i: 'cns-1\u0000' }),
      encoded({ t: '2026-11-27T17:27:33Z', i: '' }),
      encoded({ t: '2026-11-27T17:27:33Z', i: 'x'.repeat(201) }),
      encoded({ t: '2026-02-30T00:00:00Z', i: 'cns-1' }),
      encoded({ t: '2026-13-01T00:00:00Z', i: 'cns-1' }),
      encoded({ t: '2026-11-27T24:00:00Z', i: 'cns-1' }),
      encoded({ t: '2026-11-27', i: 'cns-1' }),
    ]) {
      expect(() => parseTimeKeyset(cursor)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_cursor' }));
    }
  });
});
