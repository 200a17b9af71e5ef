import { newTimeOrderedId, timeOfOrderedId } from '@arbiter/db';

/**
 * Where a webhook delivery's rows lie (docs/operations.md "A webhook attempt"). A delivery's `keep_until` is its
 * event's `created_at` plus the tenant's retention of deliveries, its attempts' the same, and the event's own is that
 * `created_at` plus the tenant's retention of events. The relay makes a delivery's id with its event's `created_at`
 * in it, so from the id alone the few `keep_until` values each row can have are known, one per retention in use: a
 * lookup naming them is planned over a partition or two, not over every one. A miss proves nothing (a retention
 * since changed, an id of an older, random form): the caller then looks in every partition.
 */

const PREFIX = 'dlv-';
const ID = /^dlv-[0-9a-f]{24}$/;

/** A delivery's id, carrying its event's time (the relay's). */
export function newDeliveryId(eventCreatedAt: Date): string {
  return newTimeOrderedId(PREFIX, eventCreatedAt);
}

/**
 * The `keep_until` values a row of delivery `id` has if written under one of `retentionsMs`, fewest first; empty
 * for an id of another form. A random id of an older release has this form too: its values simply miss.
 */
export function keepUntilsOf(id: string, retentionsMs: readonly number[]): Date[] {
  if (!ID.test(id)) return [];
  const at = timeOfOrderedId(id, PREFIX);
  return [...new Set(retentionsMs)].sort((a, b) => a - b).map((r) => new Date(at + r));
}
