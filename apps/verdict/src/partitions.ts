// The verdict gateway's partitioned tables (docs/operations.md "Partitions") and the maintenance over them.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { closedArchiveGate, PartitionMaintenance, retentionMs, type ArchiveGate, type PartitionedTable } from '@arbiter/db';
import { partitionMetrics, type ServiceMetrics } from '@arbiter/http';
import type { RegistryInternalClient } from '@arbiter/internal-api';
import type { VerdictConfig } from './config';

/** What each table is keyed by and what must hold before a past partition goes. */
export function verdictTables(config: Pick<VerdictConfig, 'RESOLVE_SESSION_TTL_S'>): PartitionedTable[] {
  const byDefault = [retentionMs(undefined, 'consultations')];
  return [
    // keep_until = requested_at + the tenant's retention of consultations when the record was written.
    {
      table: 'consultations',
      key: 'keep_until',
      archive: 'consultations',
      gates: ['archive'],
      offsets: byDefault,
      // As the table before partitioning: records stay in the row, uncompressed (prisma/verdict migrations).
      storage: 'toast_tuple_target = 8160',
    },
    // A record's shadow disagreements carry its keep_until and leave once its consultations partition is gone.
    { table: 'shadow_disagreements', key: 'keep_until', archive: null, gates: ['after:consultations'], offsets: byDefault },
    // Transient: a session leaves with its partition once expired.
    { table: 'resolve_sessions', key: 'expires_at', archive: null, gates: [], offsets: [0, config.RESOLVE_SESSION_TTL_S * 1000] },
    // A row leaves the outbox when the ledger acknowledged it; a partition goes only empty.
    { table: 'seal_outbox', key: 'created_at', archive: null, gates: ['empty'], offsets: [0] },
  ];
}

export function verdictPartitions(
  pool: Pool,
  config: Pick<VerdictConfig, 'RESOLVE_SESSION_TTL_S' | 'PARTITION_INTERVAL'>,
  registry: Pick<RegistryInternalClient, 'retentionsInUse'>,
  metrics: ServiceMetrics,
  logger: Logger,
  archiveGate: ArchiveGate = closedArchiveGate,
): PartitionMaintenance {
  return new PartitionMaintenance({
    pool,
    tables: verdictTables(config),
    intervalMs: config.PARTITION_INTERVAL,
    archiveGate,
    // Consultations land at now + each retention in use; the registry knows every tenant's. Unreachable: the
    // default's partitions are made, and a record of another retention waits in the DEFAULT partition until the
    // next run moves it (nothing is refused or lost).
    offsets: async (t) => {
      if (t.key !== 'keep_until') return [];
      try {
        return (await registry.retentionsInUse()).consultations;
      } catch (err) {
        logger.warn({ err }, 'partition maintenance: the registry did not answer the retentions in use; default retention only');
        return [];
      }
    },
    hooks: partitionMetrics(metrics, logger),
  });
}
