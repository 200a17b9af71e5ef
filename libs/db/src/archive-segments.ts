import { Readable } from 'node:stream';
import type { Pool } from 'pg';
import { PARTITION_NAME } from './partitions/plan';

/**
 * Archive segments on the services' side (docs/operations.md "Archive"): the verdict gateway and the registry each
 * serve the worker the rows of a past partition, tenant by tenant, record the segments the worker wrote and sealed
 * (table `archive_segments`), and hold the drop of an archived partition until every tenant with rows in it has a
 * segment of the same row count. Internal operations across tenants, as the seal outbox's (`...AnyTenant`).
 */

/** A partitioned table whose partitions are archived before they are dropped, and the archive kind of its rows. */
export interface ArchivedTable {
  table: string;
  kind: 'consultations' | 'deliveries' | 'events';
  /**
   * The SQL of one row's segment line (a JSON text), over the partition's row `p`. `row_to_json(p)` keeps the text of
   * `json` columns as stored (a consultation's record exactly as it was hashed and signed).
   */
  line: string;
}

/** The archived tables of each service (docs/operations.md "Retention"). */
export const ARCHIVED_TABLES: Readonly<Record<string, ArchivedTable>> = Object.freeze({
  consultations: { table: 'consultations', kind: 'consultations', line: 'row_to_json(p)::text' },
  events: { table: 'events', kind: 'events', line: 'row_to_json(p)::text' },
  // A delivery line carries its attempts (they leave with it).
  webhook_deliveries: {
    table: 'webhook_deliveries',
    kind: 'deliveries',
    line: `(to_jsonb(p) || jsonb_build_object('attempts', coalesce((SELECT jsonb_agg(to_jsonb(a) ORDER BY a.attempt)
              FROM webhook_attempts a WHERE a.tenant_id = p.tenant_id AND a.delivery_id = p.id), '[]'::jsonb)))::text`,
  },
});

/** A partition as the archive sees it: its table, archive kind and bounds (`from` null: unbounded below). */
export interface ArchivablePartition {
  partition: string;
  table: ArchivedTable;
  from: Date | null;
  to: Date | null;
}

/** A tenant with rows in a partition, and how many. */
export interface PartitionTenant {
  tenant_id: string;
  count: number;
  /** The row count of the tenant's recorded segment of this partition; null when none is recorded. */
  archived_count: number | null;
}

/** A recorded archive segment (`POST .../segments`; the row of `archive_segments`). */
export interface ArchiveSegmentRecord {
  tenant_id: string;
  kind: 'consultations' | 'deliveries' | 'events';
  partition: string;
  /** Where the segment is (`file://…` or `s3://…`). */
  url: string;
  /** The partition's bounds, ISO 8601. */
  from: string;
  to: string;
  count: number;
  /** `sha256:<hex>` of the segment object. */
  sha256: string;
  first_id: string | null;
  last_id: string | null;
  /** The ledger fact that seals the segment's manifest in `arbiter.<tenant_id>.archives`. */
  fact_id: string;
  /**
   * `sha256:<hex>` of the segment's member index, which holds each member's digest: reads check the member they
   * read against it. Absent or null for segments written before members were hashed.
   */
  index_sha256?: string | null;
}

export interface StoredArchiveSegment extends ArchiveSegmentRecord {
  created_at: string;
}

/** `GET /internal/v1/maintenance/partitions/{partition}/tenants`: who has rows in a past partition. */
export interface PartitionTenantsAnswer {
  partition: string;
  table: string;
  kind: ArchiveSegmentRecord['kind'];
  /** The partition's bounds, ISO 8601; `from` null when it is unbounded below. */
  from: string | null;
  to: string | null;
  tenants: PartitionTenant[];
}

/** `POST /internal/v1/maintenance/partitions/{partition}/segments`. */
export interface RecordSegmentAnswer {
  /** False when the segment was recorded before (this answer is that record, unchanged). */
  created: boolean;
  segment: StoredArchiveSegment;
}

const SEGMENT_FIELDS = [
  'tenant_id',
  'kind',
  'partition',
  'url',
  'from',
  'to',
  'count',
  'sha256',
  'first_id',
  'last_id',
  'fact_id',
  'index_sha256',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const TENANT = /^tnt-[0-9a-z_.-]{1,100}$/;

/** A member a segment record does not have, or a body that is no object (checked on the raw body, before any model strips members). */
export function archiveSegmentMemberProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body must be a JSON object';
  const unknown = Object.keys(body).find((k) => !SEGMENT_FIELDS.includes(k));
  return unknown ? `${unknown} is not a field of a segment record` : null;
}

/** What is wrong with a segment record for this partition, or null (the caller answers 400 with it). */
export function archiveSegmentProblem(body: unknown, p: ArchivablePartition): string | null {
  const members = archiveSegmentMemberProblem(body);
  if (members) return members;
  const b = body as Record<string, unknown>;
  const str = (k: string, max = 2048) => typeof b[k] === 'string' && (b[k] as string).length > 0 && (b[k] as string).length <= max;
  if (!str('tenant_id') || !TENANT.test(b.tenant_id as string)) return 'tenant_id must be a tenant id (tnt-…)';
  if (b.kind !== p.table.kind) return `kind must be ${p.table.kind}, the archive kind of ${p.table.table}`;
  if (b.partition !== p.partition) return `partition must be ${p.partition}, the path's`;
  if (!str('url') || !/^(file|s3):\/\//.test(b.url as string)) return 'url must be a file:// or s3:// URL';
  if (!str('from') || !ISO.test(b.from as string) || !str('to') || !ISO.test(b.to as string))
    return 'from and to must be ISO 8601 times (UTC)';
  if (p.to && Date.parse(b.to as string) !== p.to.getTime()) return `to must be the partition's upper bound ${p.to.toISOString()}`;
  if (!Number.isSafeInteger(b.count) || (b.count as number) < 0) return 'count must be a non-negative integer';
  if (!str('sha256') || !/^sha256:[0-9a-f]{64}$/.test(b.sha256 as string)) return 'sha256 must be sha256:<64 hex>';
  for (const k of ['first_id', 'last_id']) if (b[k] !== null && !str(k, 200)) return `${k} must be an id or null`;
  if (!str('fact_id', 200)) return 'fact_id must be the id of the ledger fact sealing the manifest';
  if (b.index_sha256 != null && (typeof b.index_sha256 !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(b.index_sha256)))
    return 'index_sha256 must be sha256:<64 hex> or null';
  return null;
}

/** Rows fetched per round trip of the cursor: memory holds one page, whatever the partition's size. */
const CURSOR_PAGE = 1000;

interface SegmentRow {
  tenant_id: string;
  kind: ArchiveSegmentRecord['kind'];
  partition: string;
  url: string;
  from: Date;
  to: Date;
  count: number;
  sha256: string;
  first_id: string | null;
  last_id: string | null;
  fact_id: string;
  index_sha256: string | null;
  created_at: Date;
}

const stored = (r: SegmentRow): StoredArchiveSegment => ({
  tenant_id: r.tenant_id,
  kind: r.kind,
  partition: r.partition,
  url: r.url,
  from: r.from.toISOString(),
  to: r.to.toISOString(),
  count: r.count,
  sha256: r.sha256,
  first_id: r.first_id,
  last_id: r.last_id,
  fact_id: r.fact_id,
  index_sha256: r.index_sha256,
  created_at: r.created_at.toISOString(),
});

export class ArchiveSegmentStore {
  constructor(
    private readonly pool: Pool,
    /** The archived tables this service owns. */
    private readonly tables: readonly string[],
  ) {}

  /**
   * The partition of one of this service's archived tables by name, with its bounds read from the catalog; null when
   * there is no such partition (a name of another table, a detached or dropped one, a default partition).
   */
  async partitionAnyTenant(partition: string): Promise<ArchivablePartition | null> {
    if (!PARTITION_NAME.test(partition)) return null;
    const { rows } = await this.pool.query<{ parent: string; from: Date | null; to: Date | null; is_default: boolean }>(
      `SELECT parent.relname AS parent,
              (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$FROM \\('([^']+)'\\)$$))[1]::timestamptz AS "from",
              (regexp_match(pg_get_expr(c.relpartbound, c.oid), $$TO \\('([^']+)'\\)$$))[1]::timestamptz AS "to",
              pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default
         FROM pg_class c
         JOIN pg_inherits i ON i.inhrelid = c.oid
         JOIN pg_class parent ON parent.oid = i.inhparent
        WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [partition],
    );
    const row = rows[0];
    if (!row || row.is_default || !this.tables.includes(row.parent)) return null;
    const table = ARCHIVED_TABLES[row.parent];
    return table ? { partition, table, from: row.from, to: row.to } : null;
  }

  /** A partition's bounds and the tenants with rows in it; null when it is not a partition of this service's archived tables. */
  async partitionTenantsAnyTenant(partition: string): Promise<PartitionTenantsAnswer | null> {
    const p = await this.partitionAnyTenant(partition);
    if (p === null) return null;
    return {
      partition,
      table: p.table.table,
      kind: p.table.kind,
      from: p.from?.toISOString() ?? null,
      to: p.to?.toISOString() ?? null,
      tenants: await this.tenantsAnyTenant(p),
    };
  }

  /** The tenants with rows in a partition and their counts, by tenant id. */
  async tenantsAnyTenant(p: ArchivablePartition): Promise<PartitionTenant[]> {
    const { rows } = await this.pool.query<PartitionTenant>(
      `SELECT t.tenant_id, t.count, s.count AS archived_count
         FROM (SELECT tenant_id, count(*)::int AS count FROM ${ident(p.partition)} GROUP BY tenant_id) t
         LEFT JOIN archive_segments s ON s.tenant_id = t.tenant_id AND s.kind = $1 AND s.partition = $2
        ORDER BY t.tenant_id COLLATE "C"`,
      [p.table.kind, p.partition],
    );
    return rows;
  }

  /**
   * One tenant's rows of a partition as segment lines, ordered by id (byte order, as the segment writer checks), read
   * through a server-side cursor a page at a time in one read-only transaction.
   */
  async *linesAnyTenant(p: ArchivablePartition, tenantId: string): AsyncGenerator<{ id: string; line: string }> {
    const client = await this.pool.connect();
    let committed = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(
        `DECLARE archive_rows NO SCROLL CURSOR FOR
           SELECT p.id, ${p.table.line} AS line FROM ${ident(p.partition)} p WHERE p.tenant_id = $1 ORDER BY p.id COLLATE "C"`,
        [tenantId],
      );
      for (;;) {
        const { rows } = await client.query<{ id: string; line: string }>(`FETCH ${CURSOR_PAGE} FROM archive_rows`);
        for (const r of rows) yield r;
        if (rows.length < CURSOR_PAGE) break;
      }
      await client.query('COMMIT');
      committed = true;
    } finally {
      // A failure, or a consumer that stopped early (a closed connection), leaves the transaction open: the
      // connection goes with it rather than back to the pool.
      client.release(committed ? undefined : true);
    }
  }

  /** One tenant's rows of a partition as the NDJSON body of the internal rows route: one line each, `\n`-terminated. */
  ndjsonAnyTenant(p: ArchivablePartition, tenantId: string): Readable {
    const lines = this.linesAnyTenant(p, tenantId);
    return Readable.from(
      (async function* () {
        for await (const { line } of lines) yield `${line}\n`;
      })(),
    );
  }

  /**
   * Records a segment the worker wrote, read back and sealed, once the body is checked against the partition; answers
   * what is wrong with it instead (the caller's 400).
   */
  async recordCheckedAnyTenant(p: ArchivablePartition, body: unknown): Promise<RecordSegmentAnswer | { problem: string }> {
    const problem = archiveSegmentProblem(body, p);
    return problem ? { problem } : this.recordAnyTenant(body as ArchiveSegmentRecord);
  }

  /**
   * Records a segment the worker wrote, read back and sealed. Idempotent: a second record of the same (tenant, kind,
   * partition) answers the first one unchanged, with `created: false`.
   */
  async recordAnyTenant(s: ArchiveSegmentRecord): Promise<{ created: boolean; segment: StoredArchiveSegment }> {
    const inserted = await this.pool.query<SegmentRow>(
      `INSERT INTO archive_segments (tenant_id, kind, partition, url, "from", "to", count, sha256, first_id, last_id, fact_id, index_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (tenant_id, kind, partition) DO NOTHING
       RETURNING *`,
      [s.tenant_id, s.kind, s.partition, s.url, s.from, s.to, s.count, s.sha256, s.first_id, s.last_id, s.fact_id, s.index_sha256 ?? null],
    );
    if (inserted.rows[0]) return { created: true, segment: stored(inserted.rows[0]) };
    const { rows } = await this.pool.query<SegmentRow>(
      'SELECT * FROM archive_segments WHERE tenant_id = $1 AND kind = $2 AND partition = $3',
      [s.tenant_id, s.kind, s.partition],
    );
    return { created: false, segment: stored(rows[0]) };
  }

  /** The segments recorded for a partition. */
  async segmentsOfPartitionAnyTenant(partition: string): Promise<StoredArchiveSegment[]> {
    const { rows } = await this.pool.query<SegmentRow>('SELECT * FROM archive_segments WHERE partition = $1 ORDER BY tenant_id', [
      partition,
    ]);
    return rows.map(stored);
  }

  /** One tenant's segments of a kind whose id range holds an id (an archived read looks there first). Newest first. */
  async segmentsHolding(tenantId: string, kind: ArchiveSegmentRecord['kind'], id: string): Promise<StoredArchiveSegment[]> {
    const { rows } = await this.pool.query<SegmentRow>(
      `SELECT * FROM archive_segments
        WHERE tenant_id = $1 AND kind = $2 AND first_id COLLATE "C" <= $3 AND last_id COLLATE "C" >= $3
        ORDER BY "from" DESC`,
      [tenantId, kind, id],
    );
    return rows.map(stored);
  }

  /**
   * At most `limit` segments of other tenants than `tenantId` whose id range holds an id: what tells a 403 from a 404
   * for an id the caller's own segments do not hold, at a bounded cost whatever the number of tenants. Newest first.
   */
  async otherTenantsHoldingAnyTenant(
    tenantId: string,
    kind: ArchiveSegmentRecord['kind'],
    id: string,
    limit: number,
  ): Promise<StoredArchiveSegment[]> {
    const { rows } = await this.pool.query<SegmentRow>(
      `SELECT * FROM archive_segments
        WHERE tenant_id <> $1 AND kind = $2 AND first_id COLLATE "C" <= $3 AND last_id COLLATE "C" >= $3
        ORDER BY "from" DESC, tenant_id
        LIMIT $4`,
      [tenantId, kind, id, limit],
    );
    return rows.map(stored);
  }

  /**
   * The drop gate of an archived partition (docs/operations.md "Archive"), fail closed: covered only when every
   * tenant with rows in it has a recorded segment of this partition with the same row count.
   */
  async covered(partition: string, table: string): Promise<boolean> {
    const spec = ARCHIVED_TABLES[table];
    if (!spec || !this.tables.includes(table) || !PARTITION_NAME.test(partition)) return false;
    const { rows } = await this.pool.query<{ uncovered: number }>(
      `SELECT count(*)::int AS uncovered
         FROM (SELECT tenant_id, count(*)::int AS n FROM ${ident(partition)} GROUP BY tenant_id) t
         LEFT JOIN archive_segments s ON s.tenant_id = t.tenant_id AND s.kind = $1 AND s.partition = $2
        WHERE s.count IS DISTINCT FROM t.n`,
      [spec.kind, partition],
    );
    return rows[0].uncovered === 0;
  }
}

/** A checked partition name as an SQL identifier (the pattern admits no quote). */
function ident(partition: string): string {
  if (!PARTITION_NAME.test(partition)) throw new Error(`not a partition name: ${partition}`);
  return `"${partition}"`;
}
