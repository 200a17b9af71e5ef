import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { badRequest } from './errors';
import type { Page } from '../models/identity';

/** Lists are ordered by (created_at, id); a page starts strictly after the cursor's row. */
export interface After {
  created_at: Date;
  id: string;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** Reads limit (default 50, max 1000) and the opaque cursor of a list request. */
export function readPage(q: PageQuery): { limit: number; after?: After } {
  const limit = parseLimit(q.limit, () => badRequest('limit must be an integer from 1 to 1000'));
  const pos = decodeCursor<{ c: string; i: string }>(q.cursor, () => badRequest('cursor is not valid'));
  if (!pos) return { limit };
  const created = new Date(pos.c);
  if (typeof pos.i !== 'string' || Number.isNaN(created.getTime())) throw badRequest('cursor is not valid');
  return { limit, after: { created_at: created, id: pos.i } };
}

/** Rows were fetched with limit + 1 to know whether another page exists. */
export function toPage<R extends { created_at: Date; id: string }, T>(rows: R[], limit: number, present: (r: R) => T): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  return {
    items: shown.map(present),
    next_cursor: more && last ? encodeCursor({ c: last.created_at.toISOString(), i: last.id }) : null,
  };
}
