import type { Pool, PoolClient } from 'pg';
import {
  closedArchiveGate,
  defaultPartitionName,
  duePartition,
  isPartitionNameOf,
  missingPartitions,
  parsePartitionBound,
  pastPartitions,
  wantedRanges,
  type ArchiveGate,
  type DropGate,
  type ExistingPartition,
  type MaintenancePartitionsAnswer,
  type PartitionDropAnswer,
  type PartitionedTable,
} from './plan';

// The I/O half of partition maintenance (docs/operations.md "Partitions"), shared by the verdict gateway and the
// registry: create the partitions ahead, move rows the DEFAULT partition caught into the partitions created for
// them, drop leftover detached tables, list the past partitions, and drop one when its gate is open.

/** What a run tells the service's metrics and log. */
export interface MaintenanceHooks {
  created?(table: string, partition: string): void;
  dropped?(table: string, partition: string): void;
  /** Rows found in the DEFAULT partition and moved into a partition created for them. */
  moved?(table: string, partition: string, rows: number): void;
}

export interface PartitionMaintenanceOptions {
  pool: Pool;
  tables: readonly PartitionedTable[];
  /** PARTITION_INTERVAL in milliseconds. */
  intervalMs: number;
  /** Extra offsets of a table for this run (a keep_until table: the retentions in use). */
  offsets?: (table: PartitionedTable) => Promise<number[]>;
  archiveGate?: ArchiveGate;
  hooks?: MaintenanceHooks;
  /** How long a drop waits for the table lock before it gives up until the next run (ms). */
  lockTimeoutMs?: number;
  now?: () => number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (ms: number) => `'${new Date(ms).toISOString()}'`;

/** Serialises maintenance of one table across replicas and workers: a transaction advisory lock per table. */
const lockSql = `SELECT pg_advisory_xact_lock(hashtext('arbiter.partitions.' || $1))`;

async function partitionsOf(db: PoolClient, table: string): Promise<ExistingPartition[]> {
  const { rows } = await db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass($1)`,
    [table],
  );
  return rows.map((r) => parsePartitionBound(r.name, r.bound));
}

/** Whether two key ranges share a value. */
function overlaps(a: ExistingPartition, b: ExistingPartition): boolean {
  return (a.from ?? -Infinity) < (b.to ?? Infinity) && (b.from ?? -Infinity) < (a.to ?? Infinity);
}

async function inTransaction<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    await db.query(`SET LOCAL TimeZone = 'UTC'`);
    const out = await work(db);
    await db.query('COMMIT');
    return out;
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    db.release();
  }
}

export class PartitionMaintenance {
  private readonly byTable: Map<string, PartitionedTable>;
  private readonly gate: ArchiveGate;
  private readonly now: () => number;

  constructor(private readonly opts: PartitionMaintenanceOptions) {
    this.byTable = new Map(opts.tables.map((t) => [t.table, t]));
    this.gate = opts.archiveGate ?? closedArchiveGate;
    this.now = opts.now ?? Date.now;
  }

  /** Creates the partitions ahead of every table and answers the past ones. */
  async run(): Promise<MaintenancePartitionsAnswer> {
    const due: MaintenancePartitionsAnswer['due'] = [];
    for (const spec of this.opts.tables) {
      if (!(await this.isPartitioned(spec.table))) continue;
      const extra = this.opts.offsets ? await this.opts.offsets(spec) : [];
      const offsets = [...new Set([...spec.offsets, ...extra])];
      await this.retireEmptyLegacy(spec);
      const existing = await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [spec.table]);
        await this.dropLeftovers(db, spec.table);
        const before = await partitionsOf(db, spec.table);
        const wanted = [...wantedRanges(this.now(), this.opts.intervalMs, offsets), ...(await this.strayRanges(db, spec))];
        const planned = missingPartitions(spec.table, wanted, before);
        for (const p of planned) await this.create(db, spec, p.name, p.from, p.to);
        return planned.length ? partitionsOf(db, spec.table) : before;
      });
      for (const p of pastPartitions(existing, this.now())) due.push(duePartition(spec, p));
    }
    return { due };
  }

  /**
   * Drops a past partition when its gate is open (re-checked here, whatever the caller believes): DETACH then
   * DROP in one short transaction under a lock timeout, so a busy table is left for the next run rather than
   * queueing its readers and writers behind the lock.
   */
  async drop(partition: string): Promise<PartitionDropAnswer> {
    const spec = [...this.byTable.values()].find((t) => isPartitionNameOf(t.table, partition));
    if (!spec || partition === defaultPartitionName(spec.table)) return { dropped: false, reason: 'unknown_partition' };
    const found = (await inTransaction(this.opts.pool, (db) => partitionsOf(db, spec.table))).find((p) => p.name === partition);
    if (!found) return { dropped: false, reason: 'unknown_partition' };
    if (found.isDefault || found.to === null || found.to > this.now()) return { dropped: false, reason: 'not_due' };
    try {
      await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [spec.table]);
        await db.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.opts.lockTimeoutMs ?? 2_000))}`);
        // Checked here, under the table's maintenance lock, whatever the caller was told.
        const again = await this.gateClosed(spec, found, db);
        if (again) throw new GateClosed(again);
        await db.query(`ALTER TABLE ${ident(spec.table)} DETACH PARTITION ${ident(partition)}`);
        await db.query(`DROP TABLE ${ident(partition)}`);
      });
    } catch (err) {
      if (err instanceof GateClosed) return { dropped: false, reason: err.reason };
      if ((err as { code?: string }).code === '55P03') return { dropped: false, reason: 'busy' };
      throw err;
    }
    this.opts.hooks?.dropped?.(spec.table, partition);
    return { dropped: true };
  }

  /**
   * The partition made of a transient table's rows from before partitioning (`<table>_legacy`: the seal outbox,
   * resolve sessions) reaches a day past the migration, so that rows written meanwhile by replicas of the previous
   * version fit. Once it is empty it holds nothing to keep: it goes at once (detached, found empty under the lock,
   * dropped; otherwise left as it is), and the partitions ahead are created in its place in the same run. Rows
   * written in between land in the DEFAULT partition and are moved by the creation.
   */
  private async retireEmptyLegacy(spec: PartitionedTable): Promise<void> {
    if (spec.key === 'keep_until' || spec.gates.some((g) => g !== 'empty')) return;
    const legacy = `${spec.table}_legacy`;
    try {
      await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [spec.table]);
        if (!(await partitionsOf(db, spec.table)).some((p) => p.name === legacy)) throw new GateClosed('gone');
        await db.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.opts.lockTimeoutMs ?? 2_000))}`);
        await db.query(`ALTER TABLE ${ident(spec.table)} DETACH PARTITION ${ident(legacy)}`);
        if ((await db.query(`SELECT 1 FROM ${ident(legacy)} LIMIT 1`)).rowCount) throw new GateClosed('not_empty');
        await db.query(`DROP TABLE ${ident(legacy)}`);
      });
      this.opts.hooks?.dropped?.(spec.table, legacy);
    } catch (err) {
      if (err instanceof GateClosed || (err as { code?: string }).code === '55P03') return;
      throw err;
    }
  }

  /** Whether `table` is partitioned yet (a database whose migrations are not all applied may hold the plain one). */
  private async isPartitioned(table: string): Promise<boolean> {
    const { rows } = await this.opts.pool.query<{ kind: string | null }>(
      `SELECT c.relkind::text AS kind FROM pg_class c WHERE c.oid = to_regclass($1)`,
      [table],
    );
    return rows[0]?.kind === 'p';
  }

  /** Null when the partition may go, else why not (the first closed gate). */
  private async gateClosed(spec: PartitionedTable, partition: ExistingPartition, db: PoolClient): Promise<string | null> {
    for (const gate of spec.gates) {
      const closed = await this.oneGateClosed(spec, gate, partition, db);
      if (closed) return closed;
    }
    return null;
  }

  private async oneGateClosed(spec: PartitionedTable, gate: DropGate, partition: ExistingPartition, q: PoolClient): Promise<string | null> {
    if (gate === 'archive') return (await this.gate.covered(partition.name, spec.table)) ? null : 'not_archived';
    if (gate === 'empty') {
      const { rowCount } = await q.query(`SELECT 1 FROM ${ident(partition.name)} LIMIT 1`);
      return rowCount ? 'not_empty' : null;
    }
    if (gate === 'no_pending') {
      const { rowCount } = await q.query(`SELECT 1 FROM ${ident(partition.name)} WHERE status = 'pending' LIMIT 1`);
      return rowCount ? 'pending_rows' : null;
    }
    const first = gate.slice('after:'.length);
    const overlapping = (await partitionsOf(q, first)).filter((p) => !p.isDefault && overlaps(p, partition));
    return overlapping.length ? `waits_for_${first}` : null;
  }

  /**
   * Creates one partition. Rows the DEFAULT partition caught for its range (written while it was missing) are
   * moved into it in the same transaction: PostgreSQL refuses to create a partition whose rows sit in the default.
   */
  private async create(db: PoolClient, spec: PartitionedTable, name: string, from: number, to: number): Promise<void> {
    const def = ident(defaultPartitionName(spec.table));
    const where = `${ident(spec.key)} >= ${literal(from)} AND ${ident(spec.key)} < ${literal(to)}`;
    const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${def} WHERE ${where}`);
    const strays = Number(rows[0]?.n ?? 0);
    if (strays > 0) {
      await db.query(`CREATE TEMP TABLE arbiter_strays ON COMMIT DROP AS SELECT * FROM ${def} WHERE ${where}`);
      await db.query(`DELETE FROM ${def} WHERE ${where}`);
    }
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${ident(name)} PARTITION OF ${ident(spec.table)} FOR VALUES FROM (${literal(from)}) TO (${literal(to)})${spec.storage ? ` WITH (${spec.storage})` : ''}`,
    );
    if (strays > 0) {
      await db.query(`INSERT INTO ${ident(spec.table)} SELECT * FROM arbiter_strays`);
      await db.query(`DROP TABLE arbiter_strays`);
      this.opts.hooks?.moved?.(spec.table, name, strays);
    }
    this.opts.hooks?.created?.(spec.table, name);
  }

  /**
   * The aligned ranges of the rows the DEFAULT partition holds (normally none): a partition is created for each, so
   * that its rows move there and leave, archived first where the kind is archived, when that partition's time comes,
   * even when it has passed already (maintenance stopped for longer than a retention).
   */
  private async strayRanges(db: PoolClient, spec: PartitionedTable): Promise<Array<{ from: number; to: number }>> {
    const interval = this.opts.intervalMs;
    const { rows } = await db.query<{ slot: string }>(
      `SELECT DISTINCT (floor(extract(epoch FROM ${ident(spec.key)}) * 1000 / $1) * $1)::bigint::text AS slot
         FROM ${ident(defaultPartitionName(spec.table))}`,
      [interval],
    );
    return rows.map((r) => ({ from: Number(r.slot), to: Number(r.slot) + interval }));
  }

  /** Tables named as this table's partitions that are no longer attached (a drop that died half-way). */
  private async dropLeftovers(db: PoolClient, table: string): Promise<void> {
    const { rows } = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition AND c.relname LIKE $1`,
      [`${table.replace(/_/g, '\\_')}\\_p%`],
    );
    for (const r of rows.filter((x) => isPartitionNameOf(table, x.name))) {
      await db.query(`DROP TABLE IF EXISTS ${ident(r.name)}`);
      this.opts.hooks?.dropped?.(table, r.name);
    }
  }
}

class GateClosed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
