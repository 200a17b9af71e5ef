// The approvals list query (docs/approvals.md "Endpoints and permissions": status, assignee, requester, since, until,
// dominating_rule_id, limit; plus cursor as docs/verdicts.md "Errors"), parsed and checked. Pure.
import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { parseBound } from './consultation-query';
import { badRequest } from './errors';

export interface ApprovalFilter {
  status?: string;
  assignee?: string;
  requester?: string;
  since?: Date;
  until?: Date;
  dominating_rule_id?: string;
}

export interface ApprovalPosition {
  requested_at: Date;
  id: string;
}

export interface ApprovalQuery {
  status?: string;
  assignee?: string;
  requester?: string;
  since?: string;
  until?: string;
  dominating_rule_id?: string;
  limit?: number;
  cursor?: string;
}

const STATUSES = ['pending', 'approved', 'rejected', 'expired'];

export function parseApprovalQuery(q: ApprovalQuery): { filter: ApprovalFilter; limit: number; after?: ApprovalPosition } {
  if (q.status && !STATUSES.includes(q.status))
    throw badRequest('invalid_query', `status must be one of ${STATUSES.join(', ')}`, { parameter: 'status' });
  const filter: ApprovalFilter = {
    status: q.status || undefined,
    assignee: q.assignee || undefined,
    requester: q.requester || undefined,
    since: parseBound('since', q.since),
    until: parseBound('until', q.until),
    dominating_rule_id: q.dominating_rule_id || undefined,
  };
  if (filter.since && filter.until && filter.since > filter.until)
    throw badRequest('invalid_query', 'since is after until', { parameter: 'since' });
  const limit = parseLimit(q.limit, () => badRequest('invalid_query', 'limit must be an integer from 1 to 1000', { parameter: 'limit' }));
  const position = decodeCursor<{ t?: unknown; i?: unknown }>(q.cursor, () =>
    badRequest('invalid_cursor', 'cursor is not one this list returned'),
  );
  let after: ApprovalPosition | undefined;
  if (position) {
    const t = typeof position.t === 'string' ? new Date(position.t) : null;
    if (!t || Number.isNaN(t.getTime()) || typeof position.i !== 'string')
      throw badRequest('invalid_cursor', 'cursor is not one this list returned');
    after = { requested_at: t, id: position.i };
  }
  return { filter, limit, after };
}

export function approvalCursor(approval: { requested_at: string; id: string }): string {
  return encodeCursor({ t: approval.requested_at, i: approval.id });
}
