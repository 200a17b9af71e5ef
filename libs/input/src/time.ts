// ISO 8601 instants and their calendar fields. `Date.parse` rolls impossible fields over (`2026-02-30` reads as March
// 2, `T24:00` as the next day) and reads a time without an offset in the server's zone, so a bound, a cursor or an
// expiry is read here instead. Pure.

const FIELDS = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** The number of days of `month` (1-12) of the proleptic Gregorian `year`. */
function daysIn(year: number, month: number): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month, 0);
  return at.getUTCDate();
}

/**
 * Whether the text starts with calendar fields that name a real day and time: `YYYY-MM-DD`, then optionally
 * `Thh:mm` and `:ss` (what follows them, fractions and offsets, is the caller's pattern's to check). False for
 * `2026-02-30`, `2026-13-01`, `2026-01-01T24:00` and `…T12:60`, and for text without such fields.
 */
export function hasRealCalendarFields(text: string): boolean {
  const m = FIELDS.exec(text);
  if (!m) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  const [hour, minute, second] = [m[4], m[5], m[6]].map((x) => (x === undefined ? 0 : Number(x)));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** An instant as the services accept one: a date, `T`, hours and minutes, optional seconds and fraction, `Z` or an offset. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The first and last instants of the years 0000 to 9999 in UTC: what an ISO 8601 timestamp of four digits names. */
const FIRST_INSTANT_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The milliseconds since the epoch of an ISO 8601 instant (`2026-03-01T10:00:00Z`, `2026-03-01T12:00+02:00`), or null
 * for anything else: not a string, no `Z` or offset (its instant would depend on the server's time zone), a day or time
 * the calendar lacks, an offset beyond ±23:59, an instant its offset moves out of the years 0000 to 9999 in UTC
 * (`9999-12-31T23:59:59-00:01` is in 10000, which no four-digit timestamp can write back).
 */
export function parseIsoInstant(text: unknown): number | null {
  if (typeof text !== 'string' || !INSTANT.test(text) || !hasRealCalendarFields(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) || ms < FIRST_INSTANT_MS || ms > LAST_INSTANT_MS ? null : ms;
}

/** A date, optionally followed by `T` and a time (with or without an offset): the calendar fields first. */
const DATE_OR_TIME = /^(?:[+-]\d{6}|\d{4})-\d{2}-\d{2}(?:T.+)?$/;

/**
 * The milliseconds since the epoch of an ISO 8601 date (`2026-03-01`, read as UTC midnight) or timestamp (an offset
 * optional: without one, `Date.parse` reads the local time), or null for anything else and for a day or time the
 * calendar lacks. For what is informational (a Fact's `as_of`), checked again by a server (the CLI's bounds) or read
 * on the caller's own machine (the SDK's audit period); a bound, a cursor or an expiry a service acts on takes
 * `parseIsoInstant`.
 */
export function parseIsoDateOrTime(text: unknown): number | null {
  if (typeof text !== 'string' || !DATE_OR_TIME.test(text) || !hasRealCalendarFields(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
