import { durationMs } from '@arbiter/config';
// Which partitions a partitioned table should have, and which it may lose (docs/operations.md "Partitions").
// Pure: the maintenance routes of the verdict gateway and the registry read the catalog, ask this module, and
// act. Times are milliseconds since the Unix epoch; partitions are aligned on multiples of PARTITION_INTERVAL
// since the epoch and named `<table>_p<YYYYMMDD>t<HHMM>` after their lower bound in UTC (seconds appended when
// the bound has any, e.g. an interval of 90s).

/** The column a table is partitioned by: when its rows may leave (keep_until), or a time of their own. */
export type PartitionKey = 'keep_until' | 'created_at' | 'expires_at';

/** The archive kind a table's partitions are written to before they are dropped, or null (never archived). */
export type ArchiveKind = 'consultations' | 'deliveries' | 'events';

/**
 * What must hold before a past partition is dropped (each checked again by the drop itself, fail closed):
 * - `archive`: every tenant with rows in it has an archive segment recorded for it with the same row count;
 * - `empty`: it holds no row (an outbox: a row leaves when the ledger acknowledged it);
 * - `no_pending`: it holds no pending webhook delivery;
 * - `after:<table>`: no partition of `<table>` over the same key values is left (rows that leave with the rows
 *   they derive from: shadow disagreements after their consultations, attempts after their deliveries).
 * No gate at all: transient rows (resolve sessions).
 */
export type DropGate = 'archive' | 'empty' | 'no_pending' | `after:${string}`;

export interface PartitionedTable {
  table: string;
  key: PartitionKey;
  archive: ArchiveKind | null;
  gates: DropGate[];
  /**
   * Where rows written now land, relative to now: for a keep_until table, each retention in use (filled in per
   * run); for created_at, [0]; for expires_at, the time to live of its rows.
   */
  offsets: number[];
  /** Storage parameters of each partition created (`toast_tuple_target = 8160`): a partitioned table holds none. */
  storage?: string;
}

/** A half-open range [from, to) of partition key values; null bounds are MINVALUE / MAXVALUE. */
export interface KeyRange {
  from: number | null;
  to: number | null;
}

/** A partition as the catalog describes it. */
export interface ExistingPartition extends KeyRange {
  name: string;
  /** The DEFAULT partition (no bounds). */
  isDefault: boolean;
}

/** A partition to create. */
export interface PlannedPartition {
  name: string;
  from: number;
  to: number;
}

/** A past partition the maintenance job may drop (POST /internal/v1/maintenance/partitions answers these). */
export interface DuePartition {
  table: string;
  partition: string;
  /** The bounds of its partition key, ISO 8601 (null: unbounded below, a partition made of a table's rows from before partitioning). */
  from: string | null;
  to: string;
  /** The archive kind its rows are written to before it goes, or null. */
  archive: ArchiveKind | null;
}

/** `POST /internal/v1/maintenance/partitions`: the service created the partitions ahead; these are past. */
export interface MaintenancePartitionsAnswer {
  due: DuePartition[];
}

/** `POST /internal/v1/maintenance/partitions/{partition}/drop`. */
export interface PartitionDropAnswer {
  dropped: boolean;
  /** Why not (the gate is closed, or the partition is not due or not known). */
  reason?: string;
}

/**
 * Whether the rows of a past partition of an archived kind are all in recorded archive segments. The archive part
 * of the maintenance job supplies the real one; until then `closedArchiveGate` keeps every archived kind in place.
 */
export interface ArchiveGate {
  covered(partition: string, table: string): Promise<boolean>;
}

/** Fail closed: no archived partition is ever covered. */
export const closedArchiveGate: ArchiveGate = { covered: async () => false };

/** Bounds of PARTITION_INTERVAL (docs/operations.md "Partitions"). */
export const PARTITION_INTERVAL_BOUNDS = Object.freeze({ min: 60_000, max: 31 * 86_400_000 });

/** The multiple of `interval` since the epoch at or before `t`. */
export function alignDown(t: number, interval: number): number {
  return Math.floor(t / interval) * interval;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `<table>_p<YYYYMMDD>t<HHMM>[SS]` after the lower bound in UTC. */
export function partitionName(table: string, from: number): string {
  const d = new Date(from);
  const seconds = d.getUTCSeconds() || d.getUTCMilliseconds() ? pad(d.getUTCSeconds()) : '';
  return `${table}_p${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}t${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${seconds}`;
}

/** The DEFAULT partition's name. */
export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

/**
 * The aligned ranges rows written around now land in: for each offset R, the slots covering
 * [now + R - interval, now + R + 2 intervals], merged and sorted.
 */
export function wantedRanges(now: number, interval: number, offsets: readonly number[]): KeyRange[] {
  const starts = new Set<number>();
  for (const r of offsets) {
    const first = alignDown(now + r - interval, interval);
    const last = alignDown(now + r + 2 * interval, interval);
    for (let s = first; s <= last; s += interval) starts.add(s);
  }
  return [...starts].sort((a, b) => a - b).map((s) => ({ from: s, to: s + interval }));
}

const lo = (r: KeyRange) => r.from ?? -Infinity;
const hi = (r: KeyRange) => r.to ?? Infinity;

/**
 * The parts of `wanted` no existing partition covers, each a partition to create. An existing partition of other
 * bounds (an earlier PARTITION_INTERVAL, the partition holding a table's rows from before partitioning) is cut
 * around, never overlapped: PostgreSQL refuses overlapping partitions.
 */
export function missingPartitions(table: string, wanted: readonly KeyRange[], existing: readonly ExistingPartition[]): PlannedPartition[] {
  const taken = existing.filter((p) => !p.isDefault).sort((a, b) => lo(a) - lo(b));
  const out: PlannedPartition[] = [];
  for (const w of wanted) {
    let pieces: Array<{ from: number; to: number }> = [{ from: lo(w), to: hi(w) }];
    for (const t of taken) {
      pieces = pieces.flatMap((p) => {
        if (hi(t) <= p.from || lo(t) >= p.to) return [p];
        const left = lo(t) > p.from ? [{ from: p.from, to: lo(t) }] : [];
        const right = hi(t) < p.to ? [{ from: hi(t), to: p.to }] : [];
        return [...left, ...right];
      });
    }
    for (const p of pieces) out.push({ name: partitionName(table, p.from), from: p.from, to: p.to });
  }
  return out;
}

/** The partitions whose every key value is before `now`: all their rows' time has come. */
export function pastPartitions(existing: readonly ExistingPartition[], now: number): ExistingPartition[] {
  return existing.filter((p) => !p.isDefault && p.to !== null && p.to <= now).sort((a, b) => lo(a) - lo(b));
}

/** The due list entry of a past partition. */
export function duePartition(spec: PartitionedTable, p: ExistingPartition): DuePartition {
  return {
    table: spec.table,
    partition: p.name,
    from: p.from === null ? null : new Date(p.from).toISOString(),
    to: new Date(p.to as number).toISOString(),
    archive: spec.archive,
  };
}

/** A partition name as a request may give it (`<table>_p<YYYYMMDD>t<HHMM>[SS]` or `<table>_legacy`), checked before any lookup. */
export const PARTITION_NAME = /^[a-z_]{1,60}_(p\d{8}t\d{4}(\d{2})?|legacy)$/;

/** Whether `name` can be a partition of `table` this module names: `<table>_p...`, `<table>_legacy` or `<table>_default`. */
export function isPartitionNameOf(table: string, name: string): boolean {
  if (!name.startsWith(`${table}_`)) return false;
  return /^(p\d{8}t\d{4}(\d{2})?|legacy|default)$/.test(name.slice(table.length + 1));
}

/**
 * The name a detached partition takes until it is dropped (docs/operations.md "Partitions"): `<table>_retired_<suffix>`
 * for the partition `<table>_<suffix>`. Detaching and renaming happen together, so a table of this name that is no
 * partition was detached by a drop whose second step has not run yet.
 */
export function retiredPartitionName(table: string, partition: string): string {
  if (!isPartitionNameOf(table, partition) || partition === defaultPartitionName(table)) {
    throw new Error(`${partition} is not a partition of ${table} that can be retired`);
  }
  const name = `${table}_retired_${partition.slice(table.length + 1)}`;
  // PostgreSQL cuts longer identifiers: the name would no longer say which partition it was.
  if (name.length > 63) throw new Error(`the retired name of ${partition} is longer than 63 bytes`);
  return name;
}

/** The partition a retired table was, or null when `name` is not a retired name of `table`'s partitions. */
export function retiredPartitionOf(table: string, name: string): string | null {
  const prefix = `${table}_retired_`;
  if (!name.startsWith(prefix)) return null;
  const partition = `${table}_${name.slice(prefix.length)}`;
  return isPartitionNameOf(table, partition) && partition !== defaultPartitionName(table) ? partition : null;
}

/**
 * The comment a drop writes on the table it retires, in the same transaction as the rename: the sweep of retired
 * tables drops a table only when its name and this comment both say it is one, so that a table someone else named
 * alike is never dropped.
 */
export function retiredMarker(table: string, partition: string): string {
  return `arbiter: retired partition ${partition} of ${table}, dropped by partition maintenance`;
}

const BOUND_VALUE = /^'(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?'$/;

function boundValue(text: string): number | null {
  if (text === 'MINVALUE' || text === 'MAXVALUE') return null;
  const m = BOUND_VALUE.exec(text);
  if (!m) throw new Error(`unreadable partition bound ${text}`);
  return Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`);
}

/**
 * The bounds of a partition from `pg_get_expr(relpartbound, oid)` (`FOR VALUES FROM ('2026-11-27 14:00:00+00') TO
 * (...)`, `DEFAULT`), read in a session whose TimeZone is UTC.
 */
export function parsePartitionBound(name: string, expr: string): ExistingPartition {
  if (expr.trim() === 'DEFAULT') return { name, from: null, to: null, isDefault: true };
  const m = /^FOR VALUES FROM \((.+)\) TO \((.+)\)$/.exec(expr.trim());
  if (!m) throw new Error(`unreadable partition bound of ${name}: ${expr}`);
  return { name, from: boundValue(m[1]), to: boundValue(m[2]), isDefault: false };
}

/** A tenant's retention of each kind when its settings name none (docs/operations.md "Retention"). */
export const RETENTION_DEFAULTS: Readonly<Record<ArchiveKind, string>> = Object.freeze({
  consultations: '90d',
  deliveries: '30d',
  events: '90d',
});

/**
 * The retention of `kind` in a tenant's settings, in milliseconds: `settings.retention[kind]`, else the default.
 * The registry refuses a malformed or out-of-bounds value before it is stored; a value that is not a duration
 * anyway (a settings row older than the check) reads as the default.
 */
export function retentionMs(settings: unknown, kind: ArchiveKind): number {
  const retention = (settings as { retention?: Record<string, unknown> } | null | undefined)?.retention;
  return durationMs(retention?.[kind]) ?? (durationMs(RETENTION_DEFAULTS[kind]) as number);
}
