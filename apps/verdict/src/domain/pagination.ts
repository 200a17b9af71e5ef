// The keyset the verdict lists page by (docs/verdicts.md "Errors": invalid_cursor): newest first by requested_at, the id
// breaking ties. The cursor is opaque to clients (libs/http encodes it); what it holds is checked here. Pure.
import { decodeCursor, encodeCursor } from '@arbiter/http';
import { parseIsoInstant } from '@arbiter/input';
import { badRequest } from './errors';

/** Where the previous page ended: the rows after it come next. */
export interface TimeKeyset {
  requested_at: Date;
  id: string;
}

const invalidCursor = () => badRequest('invalid_cursor', 'cursor is not one this list returned');

/** A row id as the lists page by (`cns-…`, `apr-…`, `hmac-sha256:…`): visible ASCII only, never a NUL (PostgreSQL refuses it). */
const ROW_ID = /^[\x21-\x7e]{1,200}$/;

/** The time a cursor's `t` names, or null when it is no real calendar time (`2026-02-30` is not read as March 2). */
function cursorTime(t: unknown): Date | null {
  const ms = parseIsoInstant(t);
  return ms === null ? null : new Date(ms);
}

/** The position a list's `cursor` names, or undefined without one; 400 invalid_cursor for anything this list did not return. */
export function parseTimeKeyset(cursor: string | undefined): TimeKeyset | undefined {
  const position = decodeCursor<{ t?: unknown; i?: unknown }>(cursor, invalidCursor);
  if (!position) return undefined;
  const t = cursorTime(position.t);
  if (!t || typeof position.i !== 'string' || !ROW_ID.test(position.i)) throw invalidCursor();
  return { requested_at: t, id: position.i };
}

/** The cursor of the page after this row (the last of a full page). */
export function timeKeysetCursor(row: { requested_at: string; id: string }): string {
  return encodeCursor({ t: row.requested_at, i: row.id });
}
