import type { Pool, PoolClient } from 'pg';
import { mintTenantId, type TenantId } from '@arbiter/auth';
import { jsonArrayParam } from '@arbiter/db';
import type { StoredFact, StreamHead } from '../domain/chain';
import { GENESIS_PREV_HASH } from '../domain/fact-hash';

// Streams and facts through raw SQL on the shared pg pool: these are the seal, list and verify hot
// paths, where Prisma costs about twice the CPU of pg per row (docs/development.md; bench/ledger).
// A stream is identified by (tenant_id, stream_id): every tenant has its own namespace of stream ids
// (docs/ledger-formats.md "Stream identity"). Tenant scoping is in the types: every tenant's read takes
// a TenantId (libs/auth), every read of a stream's facts takes an OwnedStream, and an OwnedStream only
// comes from findStream(tenantId, ...), so a query without a tenant does not compile. The seal queue's
// appends work on a batch of several tenants' streams at once: each stream it names is a StreamKey,
// which carries its tenant.

declare const owned: unique symbol;
/** A stream row read with the caller's tenant id: proof that the caller may see it. */
export type OwnedStream = StreamRow & { readonly [owned]: true };

export interface StreamRow extends StreamHead {
  /** Read from the stream's row: the tenant that owns it. */
  tenant_id: TenantId;
  head_sealed_at_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A stream's identity: its tenant's namespace and its id there. */
export interface StreamKey {
  tenantId: TenantId;
  streamId: string;
}

/**
 * One string per stream identity, for maps and sets. Unambiguous: a stream id never holds `/`
 * (docs/ledger-formats.md "Limits and validation"), so the text after the last `/` is the stream id.
 */
export function streamKeyText(tenantId: string, streamId: string): string {
  return `${tenantId}/${streamId}`;
}

/** A fact as stored, plus its client_ref. */
export interface FactRecord extends StoredFact {
  client_ref: string | null;
}

const STREAM_COLUMNS = 'stream_id, tenant_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms, created_at_ms, updated_at_ms';
const FACT_COLUMNS =
  'fact_id, stream_id, seq, tenant_id, actor, sealed_by, sealed_at_ms, custom_payload::text AS payload_text, prev_hash, fact_hash, parent_fact_id, client_ref';
/** The stream heads of the (tenant_id, stream_id) pairs in $1 and $2, as a join. */
const KEYED_STREAMS = `streams s JOIN unnest($1::text[], $2::text[]) AS k(tenant_id, stream_id) ON s.tenant_id = k.tenant_id AND s.stream_id = k.stream_id`;
/** The facts of $F0..$F11 (stream_id, tenant_id, then factArrays' columns); $Fn is renumbered where it is used. */
const INSERT_FACTS = `INSERT INTO facts (fact_id, stream_id, seq, tenant_id, actor, sealed_by, sealed_at_ms, custom_payload, prev_hash, fact_hash, parent_fact_id, client_ref)
               SELECT u.fact_id, u.stream_id, u.seq, u.tenant_id, u.actor, u.sealed_by, u.sealed_at_ms, u.payload, u.prev_hash, u.fact_hash, u.parent_fact_id, u.client_ref
                 FROM unnest($F0::text[], $F1::text[], $F2::text[], $F3::bigint[], $F4::text[], $F5::text[], $F6::bigint[], $F7::json[], $F8::text[], $F9::text[], $F10::text[], $F11::text[])
                   AS u(stream_id, tenant_id, fact_id, seq, actor, sealed_by, sealed_at_ms, payload, prev_hash, fact_hash, parent_fact_id, client_ref)`;
const S_STREAM_COLUMNS = STREAM_COLUMNS.split(', ')
  .map((c) => `s.${c}`)
  .join(', ');

type Queryable = Pool | PoolClient;

function factArrays(facts: NewFactRow[]): unknown[] {
  const col = <K extends keyof NewFactRow>(k: K) => facts.map((f) => f[k]);
  return [
    col('fact_id'),
    col('seq'),
    col('actor'),
    col('sealed_by'),
    col('sealed_at_ms'),
    jsonArrayParam(col('payload_text')),
    col('prev_hash'),
    col('fact_hash'),
    col('parent_fact_id'),
    col('client_ref'),
  ];
}

interface RawStream {
  stream_id: string;
  tenant_id: string;
  head_seq: string;
  head_fact_id: string | null;
  head_hash: string;
  head_sealed_at_ms: string;
  created_at_ms: string;
  updated_at_ms: string;
}

interface RawFact {
  fact_id: string;
  stream_id: string;
  seq: string;
  tenant_id: string;
  actor: string;
  sealed_by: string | null;
  sealed_at_ms: string;
  payload_text: string;
  prev_hash: string;
  fact_hash: string;
  parent_fact_id: string | null;
  client_ref: string | null;
}

// pg returns BIGINT as a string (it may exceed 2^53); sequences and epoch ms stay far below that.
function toStream(r: RawStream): StreamRow {
  return {
    ...r,
    // Trust boundary: the owner a stream row names (the caller compares it with its own tenant).
    tenant_id: mintTenantId(r.tenant_id),
    head_seq: Number(r.head_seq),
    head_sealed_at_ms: Number(r.head_sealed_at_ms),
    created_at_ms: Number(r.created_at_ms),
    updated_at_ms: Number(r.updated_at_ms),
  };
}

function toFact(r: RawFact): FactRecord {
  // In place: a verification reads every fact of a stream, and a copy per row is garbage.
  const f = r as unknown as FactRecord;
  f.seq = Number(r.seq);
  f.sealed_at_ms = Number(r.sealed_at_ms);
  return f;
}

/** One stream's part of a multi-stream append (appendStreams). */
export interface AppendGroup extends StreamKey {
  /** The head position the batch was chained after; null for a stream believed not to exist. */
  expectedSeq: number | null;
  facts: NewFactRow[];
}

export interface AppendResult {
  /** Streams whose whole batch was appended, by streamKeyText. */
  appended: Set<string>;
  /** The current heads of existing streams that did not move (another replica was first), by streamKeyText. */
  currentHeads: Map<string, StreamRow>;
}

/** A new fact row, already chained and hashed. */
export interface NewFactRow {
  fact_id: string;
  seq: number;
  actor: string;
  /** The authenticated principal that seals it (docs/ledger-formats.md "sealed_by"). */
  sealed_by: string;
  sealed_at_ms: number;
  payload_text: string;
  prev_hash: string;
  fact_hash: string;
  parent_fact_id: string | null;
  client_ref: string | null;
}

export class LedgerRepository {
  constructor(private readonly pool: Pool) {}

  async findStream(tenantId: TenantId, streamId: string): Promise<OwnedStream | null> {
    const { rows } = await this.pool.query<RawStream>({
      name: 'ledger_find_stream',
      text: `SELECT ${STREAM_COLUMNS} FROM streams WHERE tenant_id = $1 AND stream_id = $2`,
      values: [tenantId, streamId],
    });
    return rows[0] ? (toStream(rows[0]) as OwnedStream) : null;
  }

  /** A tenant's streams by (created_at_ms, stream_id), after a keyset position. */
  async listStreams(tenantId: TenantId, limit: number, after?: { created_at_ms: number; stream_id: string }): Promise<StreamRow[]> {
    const { rows } = await this.pool.query<RawStream>(
      `SELECT ${STREAM_COLUMNS} FROM streams
        WHERE tenant_id = $1 AND ($2::bigint IS NULL OR (created_at_ms, stream_id) > ($2::bigint, $3::text))
        ORDER BY created_at_ms, stream_id LIMIT $4`,
      [tenantId, after?.created_at_ms ?? null, after?.stream_id ?? '', limit],
    );
    return rows.map(toStream);
  }

  async findFact(tenantId: TenantId, factId: string): Promise<FactRecord | null> {
    const { rows } = await this.pool.query<RawFact>({
      name: 'ledger_find_fact',
      text: `SELECT ${FACT_COLUMNS} FROM facts WHERE fact_id = $1 AND tenant_id = $2`,
      values: [factId, tenantId],
    });
    return rows[0] ? toFact(rows[0]) : null;
  }

  /**
   * Facts of a stream with afterSeq < seq <= uptoSeq, in chain order: keyset pagination on the
   * (tenant_id, stream_id, seq) index, so each page costs the same however deep into the stream it
   * is. Every row of the stream is the stream's tenant's: the foreign key to the stream says so.
   */
  async chainPage(stream: OwnedStream, afterSeq: number, uptoSeq: number, limit: number): Promise<FactRecord[]> {
    const { rows } = await this.pool.query<RawFact>({
      name: 'ledger_chain_page',
      text: `SELECT ${FACT_COLUMNS} FROM facts WHERE tenant_id = $1 AND stream_id = $2 AND seq > $3 AND seq <= $4 ORDER BY seq LIMIT $5`,
      values: [stream.tenant_id, stream.stream_id, afterSeq, uptoSeq, limit],
    });
    return rows.map(toFact);
  }

  // --- appends (services/seal-queue.service.ts) ---------------------------------------------------------

  /** Locks the heads of these streams in (tenant_id, stream_id) order (no deadlock between replicas) and reads them. */
  async lockHeads(client: PoolClient, streams: StreamKey[]): Promise<StreamRow[]> {
    const { rows } = await client.query<RawStream>({
      name: 'ledger_lock_heads',
      text: `SELECT ${S_STREAM_COLUMNS} FROM ${KEYED_STREAMS} ORDER BY s.tenant_id, s.stream_id FOR UPDATE OF s`,
      values: [streams.map((k) => k.tenantId), streams.map((k) => k.streamId)],
    });
    return rows.map(toStream);
  }

  /**
   * Creates streams in their tenants' namespaces inside the caller's transaction (so no one sees
   * them before their facts), unless a concurrent transaction did: ON CONFLICT waits for that one.
   */
  async createStreams(client: PoolClient, streams: StreamKey[], nowMs: number): Promise<void> {
    await client.query({
      name: 'ledger_create_streams',
      text: `INSERT INTO streams (tenant_id, stream_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms, created_at_ms, updated_at_ms)
             SELECT c.tenant_id, c.stream_id, 0, NULL, $3, 0, $4, $4 FROM unnest($1::text[], $2::text[]) AS c(tenant_id, stream_id)
             ORDER BY c.tenant_id, c.stream_id
             ON CONFLICT (tenant_id, stream_id) DO NOTHING`,
      values: [streams.map((s) => s.tenantId), streams.map((s) => s.streamId), GENESIS_PREV_HASH, nowMs],
    });
  }

  /** The fact sealed under client_ref in the tenant's stream. */
  async findByClientRef(tenantId: TenantId, streamId: string, clientRef: string): Promise<FactRecord | null> {
    return (await this.findByClientRefs(this.pool, [{ tenantId, streamId, clientRef }]))[0] ?? null;
  }

  /** The facts already sealed under these client_refs, each in its (tenant_id, stream_id) stream. */
  async findByClientRefs(db: Queryable, refs: Array<StreamKey & { clientRef: string }>): Promise<FactRecord[]> {
    const { rows } = await db.query<RawFact>({
      name: 'ledger_find_client_refs',
      text: `SELECT ${FACT_COLUMNS} FROM facts WHERE (tenant_id, stream_id, client_ref) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
      values: [refs.map((p) => p.tenantId), refs.map((p) => p.streamId), refs.map((p) => p.clientRef)],
    });
    return rows.map(toFact);
  }

  /** Inside the transaction holding these streams' heads: inserts every batch and moves every head. */
  async appendLocked(client: PoolClient, groups: AppendGroup[], nowMs: number): Promise<void> {
    const last = groups.map((g) => g.facts[g.facts.length - 1]);
    const facts = groups.flatMap((g) => g.facts.map((f) => ({ ...f, stream_id: g.streamId, tenant_id: g.tenantId })));
    await client.query({
      name: 'ledger_append_locked',
      text: `WITH moved AS (
               UPDATE streams s SET head_seq = h.head_seq, head_fact_id = h.head_fact_id, head_hash = h.head_hash,
                                    head_sealed_at_ms = h.head_sealed_at_ms, updated_at_ms = $6
                 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $7::bigint[])
                   AS h(tenant_id, stream_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms)
                WHERE s.tenant_id = h.tenant_id AND s.stream_id = h.stream_id
                RETURNING 1)
             ${INSERT_FACTS.replace(/\$F(\d+)/g, (_m, i: string) => `$${Number(i) + 8}`)}`,
      values: [
        groups.map((g) => g.tenantId),
        groups.map((g) => g.streamId),
        last.map((f) => f.seq),
        last.map((f) => f.fact_id),
        last.map((f) => f.fact_hash),
        nowMs,
        last.map((f) => f.sealed_at_ms),
        facts.map((f) => f.stream_id),
        facts.map((f) => f.tenant_id),
        ...factArrays(facts),
      ],
    });
  }

  /**
   * The optimistic append of several streams' batches in ONE autocommitted statement (one round
   * trip, one WAL flush). For each stream, the head moves from `expectedSeq` to the batch's last
   * fact and the batch is inserted, or nothing happens to that stream: when its head is no longer
   * at expectedSeq (another replica appended), or, for a new stream (expectedSeq null), when it
   * exists meanwhile.
   *
   * The existing heads are locked first, in (tenant_id, stream_id) order (FOR UPDATE in a
   * materialised CTE), so two replicas appending to overlapping streams wait for each other instead
   * of deadlocking. A locking read returns the latest committed head even if it moved after the
   * statement began (READ COMMITTED), so two appends can never both succeed from one head, and the
   * heads of the streams that did not move come back with the answer: a retry needs no extra read.
   * A new stream is created with its head already at its last fact: a stream never exists without
   * its first fact.
   */
  async appendStreams(groups: AppendGroup[], nowMs: number): Promise<AppendResult> {
    const existing = groups.filter((g) => g.expectedSeq !== null);
    const created = groups.filter((g) => g.expectedSeq === null);
    const heads = (gs: AppendGroup[]) => {
      const last = gs.map((g) => g.facts[g.facts.length - 1]);
      return [last.map((f) => f.seq), last.map((f) => f.fact_id), last.map((f) => f.fact_hash), last.map((f) => f.sealed_at_ms)];
    };
    const facts = groups.flatMap((g) => g.facts.map((f) => ({ ...f, stream_id: g.streamId, tenant_id: g.tenantId })));
    const { rows } = await this.pool.query<RawStream & { n: number | null }>({
      name: 'ledger_append_streams',
      text: `WITH locked AS MATERIALIZED (
               SELECT ${S_STREAM_COLUMNS} FROM ${KEYED_STREAMS} ORDER BY s.tenant_id, s.stream_id FOR UPDATE OF s),
             moving AS MATERIALIZED (
               SELECT l.tenant_id, l.stream_id FROM locked l
                 JOIN unnest($1::text[], $2::text[], $3::bigint[]) AS e(tenant_id, stream_id, expected_seq)
                   ON e.tenant_id = l.tenant_id AND e.stream_id = l.stream_id
                WHERE l.head_seq = e.expected_seq),
             moved AS (
               UPDATE streams s SET head_seq = h.head_seq, head_fact_id = h.head_fact_id, head_hash = h.head_hash,
                                    head_sealed_at_ms = h.head_sealed_at_ms, updated_at_ms = $14
                 FROM unnest($1::text[], $2::text[], $4::bigint[], $5::text[], $6::text[], $7::bigint[])
                   AS h(tenant_id, stream_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms)
                WHERE s.tenant_id = h.tenant_id AND s.stream_id = h.stream_id
                  AND (s.tenant_id, s.stream_id) IN (SELECT tenant_id, stream_id FROM moving)
                RETURNING s.tenant_id, s.stream_id),
             created AS (
               INSERT INTO streams (tenant_id, stream_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms, created_at_ms, updated_at_ms)
               SELECT c.tenant_id, c.stream_id, c.head_seq, c.head_fact_id, c.head_hash, c.head_sealed_at_ms, $14, $14
                 FROM unnest($8::text[], $9::text[], $10::bigint[], $11::text[], $12::text[], $13::bigint[])
                   AS c(tenant_id, stream_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms)
               ON CONFLICT (tenant_id, stream_id) DO NOTHING
               RETURNING tenant_id, stream_id),
             inserted AS (
               ${INSERT_FACTS.replace(/\$F(\d+)/g, (_m, i: string) => `$${Number(i) + 15}`)}
                WHERE (u.tenant_id, u.stream_id) IN (SELECT tenant_id, stream_id FROM moved UNION ALL SELECT tenant_id, stream_id FROM created)
                RETURNING tenant_id, stream_id)
             SELECT stream_id, count(*)::int AS n, tenant_id, NULL::bigint AS head_seq, NULL::text AS head_fact_id,
                    NULL::text AS head_hash, NULL::bigint AS head_sealed_at_ms, NULL::bigint AS created_at_ms, NULL::bigint AS updated_at_ms
               FROM inserted GROUP BY tenant_id, stream_id
             UNION ALL
             SELECT ${STREAM_COLUMNS.split(', ')
               .map((c) => (c === 'stream_id' ? 'stream_id, NULL' : c))
               .join(', ')} FROM locked WHERE (tenant_id, stream_id) NOT IN (SELECT tenant_id, stream_id FROM moving)`,
      values: [
        existing.map((g) => g.tenantId),
        existing.map((g) => g.streamId),
        existing.map((g) => g.expectedSeq),
        ...heads(existing),
        created.map((g) => g.tenantId),
        created.map((g) => g.streamId),
        ...heads(created),
        nowMs,
        facts.map((f) => f.stream_id),
        facts.map((f) => f.tenant_id),
        ...factArrays(facts),
      ],
    });
    const sizes = new Map(groups.map((g) => [streamKeyText(g.tenantId, g.streamId), g.facts.length]));
    const result: AppendResult = { appended: new Set(), currentHeads: new Map() };
    for (const r of rows) {
      const key = streamKeyText(r.tenant_id, r.stream_id);
      if (r.n === null) result.currentHeads.set(key, toStream(r));
      else if (r.n === sizes.get(key)) result.appended.add(key);
    }
    return result;
  }

  /** Heads of several streams, without locking (the optimistic path re-checks them). */
  async readHeads(streams: StreamKey[]): Promise<StreamRow[]> {
    const { rows } = await this.pool.query<RawStream>({
      name: 'ledger_read_heads',
      text: `SELECT ${S_STREAM_COLUMNS} FROM ${KEYED_STREAMS}`,
      values: [streams.map((k) => k.tenantId), streams.map((k) => k.streamId)],
    });
    return rows.map(toStream);
  }
}
