// Checks of a tenant's `settings.retention` (docs/operations.md "Retention"). Pure.
import { durationMs, formatDuration } from '@arbiter/config';
import { isPlainObject } from '@arbiter/input';

export const RETENTION_KINDS = ['consultations', 'deliveries', 'events'] as const;

export interface RetentionProblem {
  /** 400: not a retention at all; 422: a duration outside [RETENTION_MIN, RETENTION_MAX]. */
  status: 400 | 422;
  detail: string;
}

/** The first problem of `retention` (absent is fine: the defaults apply), or null. Bounds in milliseconds. */
export function retentionProblem(retention: unknown, minMs: number, maxMs: number): RetentionProblem | null {
  if (retention === undefined) return null;
  const at = 'body.settings.retention';
  if (!isPlainObject(retention)) return { status: 400, detail: `${at}: an object {consultations?, deliveries?, events?}` };
  for (const name of Object.keys(retention)) {
    if (!(RETENTION_KINDS as readonly string[]).includes(name))
      return { status: 400, detail: `${at}.${name}: not a retention kind (consultations, deliveries, events)` };
  }
  for (const kind of RETENTION_KINDS) {
    const value = retention[kind];
    if (value === undefined) continue;
    const ms = durationMs(value);
    if (ms === null) return { status: 400, detail: `${at}.${kind}: a duration, an integer and s, m, h or d (e.g. 90d, 12h, 2m)` };
    if (ms < minMs) return { status: 422, detail: `${at}.${kind}: ${value} is below RETENTION_MIN (${formatDuration(minMs)})` };
    if (ms > maxMs) return { status: 422, detail: `${at}.${kind}: ${value} is above RETENTION_MAX (${formatDuration(maxMs)})` };
  }
  return null;
}
