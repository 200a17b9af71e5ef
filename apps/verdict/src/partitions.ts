// The verdict gateway's partitioned tables (docs/operations.md "Partitions") and the maintenance over them.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import {
  closedArchiveGate,
  SEAL_OUTBOX_PARTITIONS,
  PartitionMaintenance,
  retentionMs,
  type ArchiveGate,
  type PartitionedTable,
} from '@arbiter/db';
import { partitionMetrics, type ServiceMetrics } from '@arbiter/http';
import type { VerdictConfig } from './config';
import type { RetentionHints } from './services/retention-hints.service';

/**
 * Whether consultation records are compressed at rest: the record column's method is lz4 (the migration
 * 20270101200000_consultation_record_lz4 sets it where the server has lz4; ADR 0037).
 */
export async function recordsCompressed(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ lz4: boolean }>(
    `SELECT attcompression = 'l' AS lz4 FROM pg_attribute WHERE attrelid = 'consultations'::regclass AND attname = 'record'`,
  );
  return rows[0]?.lz4 === true;
}

/**
 * What each table is keyed by and what must hold before a past partition goes. `recordsCompressed`: new
 * consultations partitions try compressing a row from PostgreSQL's default target on (lz4, ADR 0037); otherwise
 * records stay uncompressed in the row, as the table before partitioning (prisma/verdict migrations).
 */
export function verdictTables(config: Pick<VerdictConfig, 'RESOLVE_SESSION_TTL_S'>, recordsCompressed = false): PartitionedTable[] {
  const byDefault = [retentionMs(undefined, 'consultations')];
  return [
    // keep_until = requested_at + the tenant's retention of consultations when the record was written.
    {
      table: 'consultations',
      key: 'keep_until',
      archive: 'consultations',
      gates: ['archive'],
      offsets: byDefault,
      storage: `toast_tuple_target = ${recordsCompressed ? 2032 : 8160}`,
    },
    // A record's shadow disagreements carry its keep_until and leave once its consultations partition is gone.
    { table: 'shadow_disagreements', key: 'keep_until', archive: null, gates: ['after:consultations'], offsets: byDefault },
    // Transient: a session leaves with its partition once expired.
    { table: 'resolve_sessions', key: 'expires_at', archive: null, gates: [], offsets: [0, config.RESOLVE_SESSION_TTL_S * 1000] },
    SEAL_OUTBOX_PARTITIONS,
  ];
}

export function verdictPartitions(
  pool: Pool,
  config: Pick<VerdictConfig, 'RESOLVE_SESSION_TTL_S' | 'PARTITION_INTERVAL'>,
  retentions: Pick<RetentionHints, 'refresh'>,
  metrics: ServiceMetrics,
  logger: Logger,
  archiveGate: ArchiveGate = closedArchiveGate,
  compressed = false,
): PartitionMaintenance {
  return new PartitionMaintenance({
    pool,
    tables: verdictTables(config, compressed),
    intervalMs: config.PARTITION_INTERVAL,
    archiveGate,
    // Consultations land at now + each retention in use; the registry knows every tenant's (the answer also tells
    // lookups by id where to look first: RetentionHints). Unreachable: the
    // default's partitions are made, and a record of another retention waits in the DEFAULT partition until the
    // next run moves it (nothing is refused or lost).
    offsets: async (t) => {
      if (t.key !== 'keep_until') return [];
      try {
        return await retentions.refresh();
      } catch (err) {
        logger.warn({ err }, 'partition maintenance: the registry did not answer the retentions in use; default retention only');
        return [];
      }
    },
    hooks: partitionMetrics(metrics, logger),
  });
}
