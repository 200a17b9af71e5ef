import { parseBound, parseConsultationQuery } from './consultation-query';
import { timeKeysetCursor } from './pagination';

describe(parseConsultationQuery.name, () => {
  it('defaults limit to 50 and passes the filters through', () => {
    expect(parseConsultationQuery({ actor: 'agn-1', verdict: 'blocked', action: 'a', dominating_rule_id: 'rul-1' })).toEqual({
      filter: { actor: 'agn-1', verdict: 'blocked', action: 'a', dominating_rule_id: 'rul-1', since: undefined, until: undefined },
      limit: 50,
      after: undefined,
    });
  });

  it('reads date-only bounds as whole UTC days', () => {
    expect(parseBound('since', '2026-03-01')!.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(parseBound('until', '2026-03-01')!.toISOString()).toBe('2026-03-01T23:59:59.999Z');
    expect(parseBound('until', '2026-03-01T10:00:00+02:00')!.toISOString()).toBe('2026-03-01T08:00:00.000Z');
  });

  it('refuses bad bounds, limits and cursors', () => {
    for (const q of [
      { since: 'March' },
      { until: '2026-13-45' },
      { limit: 0 },
      { limit: 1001 },
      { limit: 2.5 },
      { since: '2026-02-02', until: '2026-02-01' },
      // Days and times the calendar lacks are refused, not rolled over into the next month or day.
      { since: '2026-02-30' },
      { until: '2026-04-31' },
      { since: '2026-02-29T10:00:00Z' },
      { until: '2026-01-01T24:00Z' },
    ]) {
      expect(() => parseConsultationQuery(q)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_query' }));
    }
    for (const cursor of ['%%%', Buffer.from('{"t":"x","i":1}').toString('base64url')]) {
      expect(() => parseConsultationQuery({ cursor })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    }
  });

  it('round-trips its own cursors', () => {
    const cursor = timeKeysetCursor({ requested_at: '2026-03-01T00:00:00.001Z', id: 'cns-9' });
    expect(parseConsultationQuery({ cursor, limit: 1000 }).after).toEqual({
      requested_at: new Date('2026-03-01T00:00:00.001Z'),
      id: 'cns-9',
    });
  });
});
