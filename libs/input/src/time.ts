// Calendar fields of ISO 8601 texts. `Date.parse` rolls impossible fields over (`2026-02-30` reads as March 2,
// `T24:00` as the next day), so a bound, a cursor or an expiry naming such a time is checked here first. Pure.

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
