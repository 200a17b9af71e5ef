import type { Pool, PoolClient } from 'pg';
import {
  closedArchiveGate,
  defaultPartitionName,
  duePartition,
  isPartitionNameOf,
  missingPartitions,
  parsePartitionBound,
  pastPartitions,
  retiredMarker,
  retiredPartitionName,
  retiredPartitionOf,
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
// them, drop the retired tables a drop left behind, list the past partitions, and drop one when its gate is open.

/** What a run tells the service's metrics and log. */
export interface MaintenanceHooks {
  created?(table: string, partition: string): void;
  dropped?(table: string, partition: string): void;
  /** Rows found in the DEFAULT partition and moved into a partition created for them. */
  moved?(table: string, partition: string, rows: number): void;
  /**
   * The two steps of a drop, in milliseconds (bench/scale): `detach`, from the DETACH statement to its transaction's
   * commit (while the table's lock is held or waited for); `drop`, the retired table's own transaction (null when it
   * was left to the next run).
   */
  dropSteps?(table: string, partition: string, ms: { detach: number; drop: number | null }): void;
  /**
   * A retired table (a drop's first step done) left for the next run because a lock on it was not granted in time
   * (a session reading it): each run tries it again, so one that keeps coming back lingers.
   */
  dropDeferred?(table: string, retired: string): void;
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
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const literal = (ms: number) => `'${new Date(ms).toISOString()}'`;

/** Serialises maintenance of one table across replicas and workers: a transaction advisory lock per table. */
const lockSql = `SELECT pg_advisory_xact_lock(hashtext('arbiter.partitions.' || $1))`;

const LOCK_NOT_AVAILABLE = '55P03';
const DUPLICATE_TABLE = '42P07';
const codeOf = (err: unknown) => (err as { code?: string }).code;
const elapsedMs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

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
      await this.dropRetired(spec.table);
      const existing = await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [spec.table]);
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
   * Drops a past partition when its gate is open (re-checked here, whatever the caller believes), in two steps so
   * that the table's lock is held for a time that does not depend on the partition's size:
   * 1. one transaction under a lock timeout (a busy table is left for the next run rather than queueing its readers
   *    and writers behind the lock): the gate checked again, DETACH, and the detached table renamed
   *    `<table>_retired_<suffix>` and marked as retired; all of it or nothing;
   * 2. the retired table dropped in a transaction of its own: releasing its files, the part whose time grows with
   *    the partition, holds no lock any reader of the table waits for. Interrupted (a crash, a lock timeout), the
   *    retired table is dropped by the next run (dropRetired).
   */
  async drop(partition: string): Promise<PartitionDropAnswer> {
    const spec = [...this.byTable.values()].find((t) => isPartitionNameOf(t.table, partition));
    if (!spec || partition === defaultPartitionName(spec.table)) return { dropped: false, reason: 'unknown_partition' };
    const found = (await inTransaction(this.opts.pool, (db) => partitionsOf(db, spec.table))).find((p) => p.name === partition);
    if (!found) return { dropped: false, reason: 'unknown_partition' };
    if (found.isDefault || found.to === null || found.to > this.now()) return { dropped: false, reason: 'not_due' };
    const retired = retiredPartitionName(spec.table, partition);
    let t0 = process.hrtime.bigint();
    try {
      await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [spec.table]);
        await db.query(`SET LOCAL lock_timeout = ${this.lockTimeoutMs()}`);
        // Another run may have dropped it since it was looked up.
        if (!(await partitionsOf(db, spec.table)).some((p) => p.name === partition)) throw new GateClosed('unknown_partition');
        // Checked here, under the table's maintenance lock, whatever the caller was told.
        const again = await this.gateClosed(spec, found, db);
        if (again) throw new GateClosed(again);
        t0 = process.hrtime.bigint();
        await this.retire(db, spec.table, partition, retired);
      });
    } catch (err) {
      if (err instanceof GateClosed) return { dropped: false, reason: err.reason };
      if (codeOf(err) === LOCK_NOT_AVAILABLE) return { dropped: false, reason: 'busy' };
      // A table of the retired name that is not ours (dropRetired would have dropped one of ours): nothing detached.
      if (codeOf(err) === DUPLICATE_TABLE) return { dropped: false, reason: 'retired_name_taken' };
      throw err;
    }
    const detachMs = elapsedMs(t0); // from the DETACH to its commit
    // The partition has left the table: whatever happens to the second step, that is what the caller is told.
    this.opts.hooks?.dropped?.(spec.table, partition);
    const dropMs = await this.dropRetiredTable(spec.table, retired);
    this.opts.hooks?.dropSteps?.(spec.table, partition, { detach: detachMs, drop: dropMs });
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
        await db.query(`SET LOCAL lock_timeout = ${this.lockTimeoutMs()}`);
        await db.query(`ALTER TABLE ${ident(spec.table)} DETACH PARTITION ${ident(legacy)}`);
        if ((await db.query(`SELECT 1 FROM ${ident(legacy)} LIMIT 1`)).rowCount) throw new GateClosed('not_empty');
        await this.retire(db, spec.table, legacy, retiredPartitionName(spec.table, legacy), false);
      });
    } catch (err) {
      if (err instanceof GateClosed || codeOf(err) === LOCK_NOT_AVAILABLE || codeOf(err) === DUPLICATE_TABLE) return;
      throw err;
    }
    this.opts.hooks?.dropped?.(spec.table, legacy);
    await this.dropRetiredTable(spec.table, retiredPartitionName(spec.table, legacy));
  }

  private lockTimeoutMs(): number {
    return Math.max(1, Math.round(this.opts.lockTimeoutMs ?? 2_000));
  }

  /**
   * Detaches a partition (unless it is detached already) and renames it to its retired name with the retired
   * marker, in the caller's transaction: catalog changes only, whatever the partition's size.
   */
  private async retire(db: PoolClient, table: string, partition: string, retired: string, detach = true): Promise<void> {
    if (detach) await db.query(`ALTER TABLE ${ident(table)} DETACH PARTITION ${ident(partition)}`);
    await db.query(`ALTER TABLE ${ident(partition)} RENAME TO ${ident(retired)}`);
    await db.query(`COMMENT ON TABLE ${ident(retired)} IS ${quote(retiredMarker(table, partition))}`);
  }

  /**
   * Drops one retired table in a transaction of its own (no lock on the table it was a partition of); its time in
   * ms, or null when a lock on it was not granted in time (an operator reading it): the next run drops it.
   */
  private async dropRetiredTable(table: string, retired: string): Promise<number | null> {
    const t0 = process.hrtime.bigint();
    try {
      const dropped = await inTransaction(this.opts.pool, async (db) => {
        await db.query(lockSql, [table]);
        await db.query(`SET LOCAL lock_timeout = ${this.lockTimeoutMs()}`);
        if (!(await this.retiredTables(db, table)).includes(retired)) return false;
        await db.query(`DROP TABLE ${ident(retired)}`);
        return true;
      });
      return dropped ? elapsedMs(t0) : null;
    } catch (err) {
      if (codeOf(err) !== LOCK_NOT_AVAILABLE) throw err;
      this.opts.hooks?.dropDeferred?.(table, retired);
      return null;
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

  /**
   * The retired tables of `table` (a drop's first step done, its second not yet): a plain table of this schema,
   * not a partition, whose name is a retired name of the table's partitions and whose comment is the retired marker
   * of that partition. Nothing else: not a partition still attached, not a table someone else named alike.
   */
  private async retiredTables(db: PoolClient, table: string): Promise<string[]> {
    const { rows } = await db.query<{ name: string; marker: string | null }>(
      `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS marker
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition AND c.relname LIKE $1`,
      [`${table.replace(/_/g, '\\_')}\\_retired\\_%`],
    );
    return rows
      .filter((r) => {
        const partition = retiredPartitionOf(table, r.name);
        return partition !== null && r.marker === retiredMarker(table, partition);
      })
      .map((r) => r.name);
  }

  /** Drops every retired table of `table`: what drops interrupted between their two steps left behind. */
  private async dropRetired(table: string): Promise<void> {
    const left = await inTransaction(this.opts.pool, (db) => this.retiredTables(db, table));
    for (const name of left) await this.dropRetiredTable(table, name);
  }
}

class GateClosed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
