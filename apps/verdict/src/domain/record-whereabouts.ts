import { timeOfOrderedId } from '@arbiter/db';

/**
 * Where a consultation's row most likely is (docs/operations.md "Partitions", "A consultation by its id"). A record's
 * `keep_until` is its `requested_at` plus its tenant's retention of consultations when it was written, and its id
 * carries the millisecond the id was made (just before `requested_at` on a check; at the start of a resolve session).
 * So a record written under a retention in use has `keep_until` within a few minutes after its id's time plus that
 * retention: a lookup that names those ranges is planned over the few partitions they touch, not over every one.
 * A miss proves nothing (a retention since changed, a resolve session longer than the slack, an id of another
 * form): the caller looks in every partition then.
 */

/** Before the id's time plus a retention: clocks that stepped back. */
export const BEFORE_MS = 60_000;
/** After it: the time between the id and the record's `requested_at` (a check's awaits, a short resolve session). */
export const AFTER_MS = 10 * 60_000;

const TIME_ORDERED = /^cns-[0-9a-f]{12}[0-9a-f]+$/;

/**
 * The `keep_until` ranges `[from, to]` in which a record of `id` written under one of `retentionsMs` lies, one per
 * distinct retention; null when the id is not of the time-ordered form. An id of the form whose digits are not a
 * time (a random id of an older release) gets ranges that simply miss.
 */
export function keepUntilRanges(id: string, retentionsMs: readonly number[]): Array<[Date, Date]> | null {
  if (!TIME_ORDERED.test(id) || retentionsMs.length === 0) return null;
  const at = timeOfOrderedId(id, 'cns-');
  const ranges: Array<[Date, Date]> = [];
  for (const r of [...new Set(retentionsMs)].sort((a, b) => a - b)) {
    const from = new Date(at + r - BEFORE_MS);
    const to = new Date(at + r + AFTER_MS);
    ranges.push([from, to]);
  }
  return ranges;
}
