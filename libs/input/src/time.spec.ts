import { hasRealCalendarFields, parseIsoDateOrTime, parseIsoInstant } from './time';

describe(hasRealCalendarFields.name, () => {
  it('accepts real days and times, leap days in leap years only', () => {
    for (const text of [
      '2026-02-28',
      '2024-02-29',
      '2000-02-29',
      '2026-12-31T23:59:59.999Z',
      '2026-01-01T00:00Z',
      '2026-04-30T12:00:00+02:00',
    ]) {
      expect([text, hasRealCalendarFields(text)]).toEqual([text, true]);
    }
  });

  it('refuses fields Date.parse would roll over, and text without them', () => {
    for (const text of [
      '2026-02-29',
      '1900-02-29',
      '2026-02-30',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-01T24:00Z',
      '2026-01-01T12:60Z',
      '2026-01-01T12:00:60Z',
      'soon',
      '26-01-01',
    ]) {
      expect([text, hasRealCalendarFields(text)]).toEqual([text, false]);
    }
    // Each refused date is one Date.parse reads as another day: the reason for the check.
    expect(new Date(Date.parse('2026-02-30T00:00:00Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });
});

describe(parseIsoInstant.name, () => {
  it('reads instants with Z or an offset, seconds and fractions optional', () => {
    expect(parseIsoInstant('2026-03-01T10:00:00Z')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseIsoInstant('2026-03-01T12:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseIsoInstant('2024-02-29T23:59:59.999-00:30')).toBe(Date.UTC(2024, 2, 1, 0, 29, 59, 999));
  });

  it('refuses what is no instant: no offset, impossible fields, an offset beyond a day, other types', () => {
    for (const text of [
      '2026-03-01T10:00:00', // local time: its instant would be the server's zone's
      '2026-03-01',
      '2026-02-30T10:00:00Z',
      '2026-03-01T24:00Z',
      '2026-03-01T10:00:00+24:00',
      '2026-03-01T10:00:00+23:60',
      '2026-03-01t10:00:00z',
      ' 2026-03-01T10:00:00Z',
      'Sun, 01 Mar 2026 10:00:00 GMT',
      1772359200000,
      null,
    ]) {
      expect([text, parseIsoInstant(text)]).toEqual([text, null]);
    }
  });

  it('refuses an instant its offset moves out of the years 0000 to 9999 in UTC (no four-digit timestamp writes it back)', () => {
    expect(parseIsoInstant('9999-12-31T23:59:59.999Z')).toBe(Date.UTC(9999, 11, 31, 23, 59, 59, 999));
    expect(parseIsoInstant('9999-12-31T23:59:59.999+00:01')).not.toBeNull();
    expect(parseIsoInstant('0000-01-01T00:00:00Z')).not.toBeNull();
    for (const text of ['9999-12-31T23:59:59.999-00:01', '9999-12-31T23:30-01:00', '0000-01-01T00:00:00+00:01']) {
      expect([text, parseIsoInstant(text)]).toEqual([text, null]);
    }
  });
});

describe(parseIsoDateOrTime.name, () => {
  it('reads dates and timestamps, an offset optional', () => {
    expect(parseIsoDateOrTime('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(parseIsoDateOrTime('2026-03-01T12:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseIsoDateOrTime('2024-02-29T10:00:00')).toBe(new Date(2024, 1, 29, 10).getTime());
  });

  it('refuses days the calendar lacks, text that starts elsewhere, and other types', () => {
    for (const text of ['2026-02-30', '2026-03-01T24:00Z', '2026-03-01 10:00', 'yesterday', ' 2026-03-01', '2026-03-01T', 20260301, null]) {
      expect([text, parseIsoDateOrTime(text)]).toEqual([text, null]);
    }
  });
});
