import type { Pool } from 'pg';
import type { TenantId } from '@arbiter/auth';
import type { OwnedStream, StreamKey } from './ledger.repository';

// The stored part of each stream's Merkle tree (docs/adr/0009-merkle-storage.md) through raw SQL
// on the shared pg pool, like the ledger's other hot paths. Leaves are read from facts (leaf i is
// the fact at seq i + 1, on the (tenant_id, stream_id, seq) index); merkle_nodes holds the subtree
// roots of the stored levels. A stream is (tenant_id, stream_id). Its tree is reached through an
// OwnedStream (a tenant's request) or an AppendedStream: a stream the seal queue has just committed
// facts to, whose nodes the background filler stores (named ...AnyTenant where it is made).

declare const appended: unique symbol;
/** A stream the seal queue appended to: the filler's way into any tenant's tree. */
export type AppendedStream = { readonly tenant_id: TenantId; readonly stream_id: string; readonly [appended]: true };
/** A tree the caller may read: an OwnedStream, or an AppendedStream for the filler. */
export type TreeStream = OwnedStream | AppendedStream;

/** The seal queue committed facts to this stream (services/merkle-tree.service.ts fills its nodes). */
export function appendedStreamAnyTenant(stream: StreamKey): AppendedStream {
  return { tenant_id: stream.tenantId, stream_id: stream.streamId } as AppendedStream;
}

/** Index ranges [start, end) at one level (leaf indices for the leaves). */
export interface IndexRange {
  start: number;
  end: number;
}

export interface StoredNode {
  idx: number;
  hash: Uint8Array;
}

/**
 * Proof-sized reads (a few hundred rows) name every index: `= ANY(list)` on the primary key is an
 * index lookup in any plan, whereas ranges from parameters leave a prepared statement's generic plan
 * guessing their size (it may scan the stream). Larger reads (the filler's) go range by range.
 */
const MAX_LISTED = 4096;
const listed = (ranges: IndexRange[]) => ranges.reduce((n, r) => n + r.end - r.start, 0) <= MAX_LISTED;
function indices(ranges: IndexRange[]): number[] {
  const out: number[] = [];
  for (const r of ranges) for (let i = r.start; i < r.end; i++) out.push(i);
  return out;
}

export class MerkleRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * fact_hash of each leaf in the ranges, by leaf index (seq − 1). Reads every row of the stream
   * (as the chain walk does): the facts are the leaves, whoever's rows they claim to be.
   */
  async leafHashes(stream: TreeStream, ranges: IndexRange[]): Promise<Map<number, string>> {
    const { rows } = await this.pool.query<{ seq: string; fact_hash: string }>(
      listed(ranges)
        ? {
            name: 'merkle_leaf_hashes',
            text: 'SELECT seq, fact_hash FROM facts WHERE tenant_id = $1 AND stream_id = $2 AND seq = ANY($3::bigint[])',
            values: [stream.tenant_id, stream.stream_id, indices(ranges).map((i) => i + 1)],
          }
        : {
            name: 'merkle_leaf_hash_ranges',
            text: `SELECT f.seq, f.fact_hash FROM unnest($3::bigint[], $4::bigint[]) AS r(lo, hi)
                     CROSS JOIN LATERAL (SELECT seq, fact_hash FROM facts WHERE tenant_id = $1 AND stream_id = $2 AND seq > r.lo AND seq <= r.hi) f`,
            values: [stream.tenant_id, stream.stream_id, ranges.map((r) => r.start), ranges.map((r) => r.end)],
          },
    );
    return new Map(rows.map((r) => [Number(r.seq) - 1, r.fact_hash]));
  }

  /** The stored nodes of one level in the ranges. */
  async nodes(stream: TreeStream, level: number, ranges: IndexRange[]): Promise<Map<number, Uint8Array>> {
    const { rows } = await this.pool.query<{ idx: string; hash: Buffer }>(
      listed(ranges)
        ? {
            name: 'merkle_nodes',
            text: 'SELECT idx, hash FROM merkle_nodes WHERE tenant_id = $1 AND stream_id = $2 AND level = $3 AND idx = ANY($4::bigint[])',
            values: [stream.tenant_id, stream.stream_id, level, indices(ranges)],
          }
        : {
            name: 'merkle_node_ranges',
            text: `SELECT n.idx, n.hash FROM unnest($4::bigint[], $5::bigint[]) AS r(lo, hi)
                     CROSS JOIN LATERAL (SELECT idx, hash FROM merkle_nodes WHERE tenant_id = $1 AND stream_id = $2 AND level = $3 AND idx >= r.lo AND idx < r.hi) n`,
            values: [stream.tenant_id, stream.stream_id, level, ranges.map((r) => r.start), ranges.map((r) => r.end)],
          },
    );
    return new Map(rows.map((r) => [Number(r.idx), new Uint8Array(r.hash)]));
  }

  /**
   * The filler's blocks (services/merkle-tree.service.ts) of many streams in ONE statement, as
   * insertNodes does for one: nodes already stored are left as they are, and their stored hashes
   * are answered for the caller to compare.
   */
  async insertNodesAnyTenant(
    nodes: Array<StoredNode & { stream: AppendedStream; level: number }>,
  ): Promise<Array<StoredNode & { stream: AppendedStream; level: number }>> {
    if (!nodes.length) return [];
    const { rows } = await this.pool.query<{ tenant_id: string; stream_id: string; level: number; idx: string }>({
      name: 'merkle_insert_nodes_any_tenant',
      text: `INSERT INTO merkle_nodes (tenant_id, stream_id, level, idx, hash)
             SELECT n.tenant_id, n.stream_id, n.level, n.idx, n.hash FROM unnest($1::text[], $2::text[], $3::smallint[], $4::bigint[], $5::bytea[]) AS n(tenant_id, stream_id, level, idx, hash)
              ORDER BY n.tenant_id, n.stream_id, n.level, n.idx
             ON CONFLICT (tenant_id, stream_id, level, idx) DO NOTHING
             RETURNING tenant_id, stream_id, level, idx`,
      values: [
        nodes.map((n) => n.stream.tenant_id),
        nodes.map((n) => n.stream.stream_id),
        nodes.map((n) => n.level),
        nodes.map((n) => n.idx),
        nodes.map((n) => Buffer.from(n.hash)),
      ],
    });
    if (rows.length === nodes.length) return [];
    const nodeKey = (tenantId: string, streamId: string, level: number, idx: number) => `${tenantId}/${streamId}/${level}/${idx}`;
    const inserted = new Set(rows.map((r) => nodeKey(r.tenant_id, r.stream_id, Number(r.level), Number(r.idx))));
    const stored: Array<StoredNode & { stream: AppendedStream; level: number }> = [];
    for (const n of nodes) {
      if (inserted.has(nodeKey(n.stream.tenant_id, n.stream.stream_id, n.level, n.idx))) continue;
      const found = await this.nodes(n.stream, n.level, [{ start: n.idx, end: n.idx + 1 }]);
      for (const [idx, hash] of found) stored.push({ stream: n.stream, level: n.level, idx, hash });
    }
    return stored;
  }

  /**
   * Inserts nodes that are not stored yet (several replicas and the filler may race: the first one
   * wins) and answers the rows that were there already, for the caller to compare.
   */
  async insertNodes(stream: TreeStream, level: number, nodes: StoredNode[]): Promise<StoredNode[]> {
    const { rows } = await this.pool.query<{ idx: string }>({
      name: 'merkle_insert_nodes',
      text: `INSERT INTO merkle_nodes (tenant_id, stream_id, level, idx, hash)
             SELECT $1, $2, $3, n.idx, n.hash FROM unnest($4::bigint[], $5::bytea[]) AS n(idx, hash) ORDER BY n.idx
             ON CONFLICT (tenant_id, stream_id, level, idx) DO NOTHING
             RETURNING idx`,
      values: [stream.tenant_id, stream.stream_id, level, nodes.map((n) => n.idx), nodes.map((n) => Buffer.from(n.hash))],
    });
    if (rows.length === nodes.length) return [];
    const inserted = new Set(rows.map((r) => Number(r.idx)));
    const others = nodes.filter((n) => !inserted.has(n.idx)).map((n) => ({ start: n.idx, end: n.idx + 1 }));
    const stored = await this.nodes(stream, level, others);
    return [...stored].map(([idx, hash]) => ({ idx, hash }));
  }
}
