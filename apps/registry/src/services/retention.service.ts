import type { Pool } from 'pg';
import { durationMs } from '@arbiter/config';
import { RETENTION_DEFAULTS } from '@arbiter/db';
import type { RetentionsInUse } from '../models/retention';
import { RETENTION_KINDS } from '../domain/retention';

/** How long the retentions in use are taken as read for lookup hints. */
export const HINTS_MAX_AGE_MS = 60_000;

/** The retentions the tenants' settings name (docs/operations.md "Retention"), for partitions made ahead. */
export class RetentionService {
  private hinted: { at: number; value: Promise<RetentionsInUse | null> } | null = null;

  constructor(private readonly pool: Pool) {}

  /**
   * inUse() as read at most HINTS_MAX_AGE_MS ago, or null when it cannot be read: hints of where a row looked up by
   * its id lies (docs/operations.md "A webhook attempt"), where a stale or missing answer only costs a second look.
   */
  hints(now = Date.now()): Promise<RetentionsInUse | null> {
    if (!this.hinted || now - this.hinted.at > HINTS_MAX_AGE_MS)
      this.hinted = { at: now, value: this.inUse().catch(() => ((this.hinted = null), null)) };
    return this.hinted.value;
  }

  /** Per kind, the distinct retentions in milliseconds, the default always among them. */
  async inUse(): Promise<RetentionsInUse> {
    // Across tenants by design: maintenance is platform-wide (one partitioned table for every tenant).
    const { rows } = await this.pool.query<{ kind: string; value: string }>(
      `SELECT DISTINCT k.kind, t.settings->'retention'->>k.kind AS value
         FROM tenants t CROSS JOIN unnest($1::text[]) AS k(kind)
        WHERE t.settings->'retention'->>k.kind IS NOT NULL`,
      [RETENTION_KINDS],
    );
    const out: RetentionsInUse = { consultations: [], deliveries: [], events: [] };
    for (const kind of RETENTION_KINDS) {
      const values = new Set<number>([durationMs(RETENTION_DEFAULTS[kind]) as number]);
      for (const r of rows) {
        const ms = r.kind === kind ? durationMs(r.value) : null;
        if (ms !== null) values.add(ms);
      }
      out[kind] = [...values].sort((a, b) => a - b);
    }
    return out;
  }
}
