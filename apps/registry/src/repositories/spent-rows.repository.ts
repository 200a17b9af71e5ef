import type { Pool } from 'pg';

/**
 * How long a console sign-in link or session stays after it expired: a link used too late is answered 410 ("Link
 * expired") for that long, then 404 like any unknown link. Either is refused; deleting it changes no access.
 */
export const SPENT_CREDENTIAL_GRACE = '7 days';

/**
 * Rows whose use is over, across tenants (docs/operations.md "Retention"): the registry's pruner deletes them in
 * batches (BatchPruner, libs/db); no caller's request reaches this. Each statement deletes at most `batch` rows of
 * its table, through the table's time index.
 */
export class SpentRowsRepository {
  constructor(private readonly pool: Pool) {}

  async pruneAnyTenant(batch: number): Promise<{ notifications: number; links: number; sessions: number; event_keys: number }> {
    // A notification leaves with its approval.requested event's retention, never while it may still be sent.
    const notifications = await this.pool.query(
      `DELETE FROM approval_notifications WHERE id IN (
         SELECT id FROM approval_notifications WHERE keep_until < now() AND status <> 'pending' LIMIT $1)`,
      [batch],
    );
    const links = await this.pool.query(
      `DELETE FROM console_links WHERE id IN (
         SELECT id FROM console_links WHERE expires_at < now() - $2::interval LIMIT $1)`,
      [batch, SPENT_CREDENTIAL_GRACE],
    );
    const sessions = await this.pool.query(
      `DELETE FROM console_sessions WHERE id IN (
         SELECT id FROM console_sessions WHERE expires_at < now() - $2::interval LIMIT $1)`,
      [batch, SPENT_CREDENTIAL_GRACE],
    );
    // An event's idempotency key is remembered while its event is kept (a retry after that records the event anew).
    const eventKeys = await this.pool.query(
      `DELETE FROM event_keys WHERE (tenant_id, idempotency_key) IN (
         SELECT tenant_id, idempotency_key FROM event_keys WHERE keep_until < now() LIMIT $1)`,
      [batch],
    );
    return {
      notifications: notifications.rowCount ?? 0,
      links: links.rowCount ?? 0,
      sessions: sessions.rowCount ?? 0,
      event_keys: eventKeys.rowCount ?? 0,
    };
  }
}
