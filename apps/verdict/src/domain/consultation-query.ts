// The consultations list query (docs/verdicts.md "Consultations": actor, since, until, action, verdict,
// dominating_rule_id, limit, cursor), parsed and checked. Pure.
import { parseLimit } from '@arbiter/http';
import { parseIsoInstant } from '@arbiter/input';
import { badRequest } from './errors';
import { parseTimeKeyset, type TimeKeyset } from './pagination';

export interface ConsultationFilter {
  actor?: string;
  since?: Date;
  until?: Date;
  action?: string;
  verdict?: string;
  dominating_rule_id?: string;
}

export type ConsultationPosition = TimeKeyset;

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
const DAY_MS = 86_400_000;

/**
 * A date bound (docs/verdicts.md "Consultations"): a date-only `since` starts at 00:00 UTC of that
 * day, a date-only `until` includes the whole day; a timestamp bound is exact and inclusive.
 */
export function parseBound(name: 'since' | 'until', raw: string | undefined): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const dateOnly = DATE_ONLY.test(raw);
  // A day the month lacks is refused, not rolled over into the next month as Date.parse would.
  const ms = parseIsoInstant(dateOnly ? `${raw}T00:00:00Z` : raw);
  if (ms === null) throw badRequest('invalid_query', `${name} must be an ISO 8601 date (YYYY-MM-DD) or timestamp`, { parameter: name });
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
  return { filter, limit, after: parseTimeKeyset(q.cursor) };
}
