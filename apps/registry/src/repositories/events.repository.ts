import type { TenantId } from '@arbiter/auth';
import type { Prisma, Event as EventRow } from '../generated/prisma/client';
import { findWhereLikely, retentionsOf, type Db } from './db';

export type { EventRow };

export interface NewEvent {
  type: string;
  scope_id: string | null;
  scope_ids: string[];
  entity_type: string;
  entity_id: string;
  data: object;
  /** Who recorded it: the registry itself (default) or another service (internal events endpoint). */
  source?: 'registry' | 'verdict';
  /** The recording service's idempotency key (unique per tenant). */
  idempotency_key?: string | null;
}

/** `evt-` + the global sequence number as 16 hex digits: lexical order is numeric order. */
export function eventId(seq: bigint): string {
  return `evt-${seq.toString(16).padStart(16, '0')}`;
}

const EVENT_ID = /^evt-[0-9a-f]{16}$/;

/** The sequence number an event id encodes, or null for a malformed id. */
export function eventSeq(id: string): bigint | null {
  if (!EVENT_ID.test(id)) return null;
  const seq = BigInt(`0x${id.slice(4)}`);
  // Positions are PostgreSQL bigints: an id past the largest names no event and cannot be compared in SQL.
  return seq <= MAX_SEQ ? seq : null;
}
const MAX_SEQ = 2n ** 63n - 1n;

/** The event feed and each tenant's head row (write lock and revision counter); every query but the `...AnyTenant` ones takes the tenant id. */
export class EventsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the tenant's write lock for the rest of the transaction and bumps its revision. Every
   * registry write transaction calls this first: a tenant's writes then commit one at a time, so
   * sequence numbers taken after it grow in commit order within the tenant (docs/registry.md "Event feed"),
   * and no two transactions can lock rows in opposite orders.
   */
  async lockHead(tenantId: TenantId): Promise<bigint> {
    const rows = await this.db.$queryRawUnsafe<Array<{ revision: bigint }>>(
      `INSERT INTO "tenant_heads" ("tenant_id", "revision", "updated_at") VALUES ($1, 1, now())
       ON CONFLICT ("tenant_id") DO UPDATE SET "revision" = "tenant_heads"."revision" + 1, "updated_at" = now()
       RETURNING "revision"`,
      tenantId,
    );
    return BigInt(rows[0].revision);
  }

  async revision(tenantId: TenantId): Promise<bigint> {
    const head = await this.db.tenantHead.findUnique({ where: { tenant_id: tenantId } });
    return head?.revision ?? 0n;
  }

  async append(tenantId: TenantId, actorId: string | null, event: NewEvent): Promise<EventRow> {
    const [{ seq }] = await this.db.$queryRawUnsafe<Array<{ seq: bigint }>>(
      `SELECT nextval(pg_get_serial_sequence('"events"', 'seq')) AS seq`,
    );
    const n = BigInt(seq);
    // Kept for the tenant's retention of events as its settings say now (docs/operations.md "Retention").
    const createdAt = new Date();
    const retention = (await retentionsOf(this.db, 'events', [tenantId]))(tenantId);
    return this.db.event.create({
      data: {
        id: eventId(n),
        seq: n,
        tenant_id: tenantId,
        scope_id: event.scope_id,
        scope_ids: event.scope_ids,
        type: event.type,
        entity_type: event.entity_type,
        entity_id: event.entity_id,
        data: event.data as Prisma.InputJsonValue,
        actor_id: actorId,
        created_at: createdAt,
        keep_until: new Date(createdAt.getTime() + retention),
        source: event.source ?? 'registry',
        idempotency_key: event.idempotency_key ?? null,
      },
    });
  }

  /**
   * The event another service already recorded under this idempotency key, if it is still kept. The key's row
   * (event_keys, one table, unique by its primary key) names the event and its keep_until, so the event is read in
   * its own partition (docs/operations.md "An event by its idempotency key").
   */
  async findByIdempotencyKey(tenantId: TenantId, key: string): Promise<EventRow | null> {
    const ref = await this.db.eventKey.findUnique({ where: { tenant_id_idempotency_key: { tenant_id: tenantId, idempotency_key: key } } });
    if (!ref) return null;
    return this.db.event.findFirst({ where: { id: ref.event_id, keep_until: ref.keep_until, tenant_id: tenantId } });
  }

  /**
   * Across tenants: the outbox relay's events, by the ids and keep_until its outbox rows name, oldest first. Those
   * with a keep_until are read from their partitions only; the rest (rows of an older release) in every partition.
   */
  async findManyAnyTenant(refs: Array<{ event_id: string; event_keep_until: Date | null }>): Promise<EventRow[]> {
    const placed = refs.filter((r) => r.event_keep_until);
    const keeps = [...new Set(placed.map((r) => r.event_keep_until!.getTime()))].map((t) => new Date(t));
    const found = placed.length
      ? await this.db.event.findMany({ where: { id: { in: placed.map((r) => r.event_id) }, keep_until: { in: keeps } } })
      : [];
    const seen = new Set(found.map((e) => e.id));
    const rest = refs.filter((r) => !seen.has(r.event_id)).map((r) => r.event_id);
    if (rest.length) found.push(...(await this.db.event.findMany({ where: { id: { in: rest } } })));
    return found.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  }

  /**
   * Across tenants: the event a webhook delivery or an approval notification (already read by its id) carries; looked
   * for first where `likely` says (the `keep_until` values it would have), then in every partition.
   */
  findAnyTenant(id: string, likely: Date[]) {
    return findWhereLikely(likely, (keepUntils) =>
      this.db.event.findFirst({ where: { id, ...(keepUntils ? { keep_until: { in: keepUntils } } : {}) } }),
    );
  }

  /** A scope's events after a sequence number, oldest first, optionally of some types. */
  list(tenantId: TenantId, scopeId: string, afterSeq: bigint, types: string[] | null, limit: number) {
    return this.db.event.findMany({
      where: { tenant_id: tenantId, scope_ids: { has: scopeId }, seq: { gt: afterSeq }, ...(types ? { type: { in: types } } : {}) },
      orderBy: { seq: 'asc' },
      take: limit + 1,
    });
  }
}
