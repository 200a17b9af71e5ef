// The approvals list query (docs/approvals.md "Endpoints and permissions": status, assignee, requester, since, until,
// dominating_rule_id, limit; plus cursor as docs/verdicts.md "Errors"), parsed and checked. Pure.
import { parseLimit } from '@arbiter/http';
import { parseBound } from './consultation-query';
import { badRequest } from './errors';
import { parseTimeKeyset, type TimeKeyset } from './pagination';

export interface ApprovalFilter {
  status?: string;
  assignee?: string;
  requester?: string;
  since?: Date;
  until?: Date;
  dominating_rule_id?: string;
}

export type ApprovalPosition = TimeKeyset;

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
  return { filter, limit, after: parseTimeKeyset(q.cursor) };
}
