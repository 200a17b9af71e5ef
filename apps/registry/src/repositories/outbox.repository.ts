import { mintTenantId, type TenantId } from '@arbiter/auth';
import type { Db } from './db';

export interface OutboxRow {
  id: bigint;
  tenant_id: TenantId;
  event_id: string;
  /** The event's keep_until: where it lies (null on a row of an older release). */
  event_keep_until: Date | null;
}

/**
 * The transactional outbox (README.md "Architecture"; ADR 0005): one row per event still to be fanned
 * out to webhook subscriptions, inserted in the transaction that wrote the event.
 */
export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async add(tenantId: TenantId, events: Array<{ id: string; keep_until: Date }>): Promise<void> {
    if (events.length)
      await this.db.outbox.createMany({
        data: events.map((e) => ({ tenant_id: tenantId, event_id: e.id, event_keep_until: e.keep_until })),
      });
  }
}

/**
 * Across tenants: the relay (services/outbox-relay.service.ts) drains every tenant's outbox rows;
 * each row names its tenant, which becomes the TenantId of what the relay reads for it.
 */
export class OutboxAnyTenantRepository {
  constructor(private readonly db: Db) {}

  /**
   * The oldest rows no other transaction holds, locked until this transaction ends. SKIP LOCKED
   * lets several relays (worker processes, registry replicas) each take a different batch
   * instead of queueing behind one another.
   */
  async claim(limit: number): Promise<OutboxRow[]> {
    const rows = await this.db.$queryRawUnsafe<Array<{ id: bigint; tenant_id: string; event_id: string; event_keep_until: Date | null }>>(
      `SELECT "id", "tenant_id", "event_id", "event_keep_until" FROM "outbox" ORDER BY "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
      limit,
    );
    // Trust boundary: rows the database returned, written in their tenant's own transaction.
    return rows.map((r) => ({ ...r, tenant_id: mintTenantId(r.tenant_id) }));
  }

  async remove(ids: bigint[]): Promise<void> {
    if (ids.length) await this.db.outbox.deleteMany({ where: { id: { in: ids } } });
  }

  /** Rows still waiting (health and tests). */
  count(): Promise<number> {
    return this.db.outbox.count();
  }
}
