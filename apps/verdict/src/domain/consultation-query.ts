// The consultations list query (docs/verdicts.md "Consultations": actor, since, until, action, verdict,
// dominating_rule_id, limit, cursor), parsed and checked. Pure.
import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { badRequest } from './errors';

export interface ConsultationFilter {
  actor?: string;
  since?: Date;
  until?: Date;
  action?: string;
  verdict?: string;
  dominating_rule_id?: string;
}

export interface ConsultationPosition {
  requested_at: Date;
  id: string;
}

export interface ConsultationQuery {
  actor?: string;
  since?: string;
  until?: string;
  action?: string;
  verdict?: string;
  dominating_rule_id?: string;
  limit?: number;
  cursor?: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * A date bound (docs/verdicts.md "Consultations"): a date-only `since` starts at 00:00 UTC of that
 * day, a date-only `until` includes the whole day; a timestamp bound is exact and inclusive.
 */
export function parseBound(name: 'since' | 'until', raw: string | undefined): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const dateOnly = DATE_ONLY.test(raw);
  const ms = dateOnly || DATE_TIME.test(raw) ? Date.parse(dateOnly ? `${raw}T00:00:00Z` : raw) : NaN;
  if (Number.isNaN(ms))
    throw badRequest('invalid_query', `${name} must be an ISO 8601 date (YYYY-MM-DD) or timestamp`, { parameter: name });
  return new Date(dateOnly && name === 'until' ? ms + DAY_MS - 1 : ms);
}

export function parseConsultationQuery(q: ConsultationQuery): { filter: ConsultationFilter; limit: number; after?: ConsultationPosition } {
  const filter: ConsultationFilter = {
    actor: q.actor || undefined,
    since: parseBound('since', q.since),
    until: parseBound('until', q.until),
    action: q.action || undefined,
    verdict: q.verdict || undefined,
    dominating_rule_id: q.dominating_rule_id || undefined,
  };
  if (filter.since && filter.until && filter.since > filter.until)
    throw badRequest('invalid_query', 'since is after until', { parameter: 'since' });
  const limit = parseLimit(q.limit, () => badRequest('invalid_query', 'limit must be an integer from 1 to 1000', { parameter: 'limit' }));
  const position = decodeCursor<{ t?: unknown; i?: unknown }>(q.cursor, () =>
    badRequest('invalid_cursor', 'cursor is not one this list returned'),
  );
  let after: ConsultationPosition | undefined;
  if (position) {
    const t = typeof position.t === 'string' ? new Date(position.t) : null;
    if (!t || Number.isNaN(t.getTime()) || typeof position.i !== 'string')
      throw badRequest('invalid_cursor', 'cursor is not one this list returned');
    after = { requested_at: t, id: position.i };
  }
  return { filter, limit, after };
}

export function cursorAfter(record: { requested_at: string; id: string }): string {
  return encodeCursor({ t: record.requested_at, i: record.id });
}
