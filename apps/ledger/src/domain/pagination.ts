import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { validationError } from './errors';

/** docs/ledger-formats.md lists: limit (default 50, max 1000) and an opaque cursor. */
export function readLimit(limit: number | undefined): number {
  return parseLimit(limit, () => validationError('limit must be an integer from 1 to 1000', 'limit'));
}

/** A keyset position {created_at_ms, id} in a cursor. */
export function readCursor(cursor: string | undefined): { at: number; id: string } | undefined {
  const invalid = () => validationError('cursor is not valid', 'cursor');
  const pos = decodeCursor<{ t: unknown; i: unknown }>(cursor, invalid);
  if (!pos) return undefined;
  if (!Number.isSafeInteger(pos.t) || typeof pos.i !== 'string') throw invalid();
  return { at: pos.t as number, id: pos.i };
}

/** Rows were fetched with limit + 1 to know whether another page exists. */
export function toPage<R, T>(rows: R[], limit: number, position: (r: R) => { at: number; id: string }, present: (r: R) => T) {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  const next = more && last ? position(last) : undefined;
  return { items: shown.map(present), next_cursor: next ? encodeCursor({ t: next.at, i: next.id }) : null };
}
