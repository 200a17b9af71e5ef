// The registry's partitioned tables (docs/operations.md "Partitions") and the maintenance over them.
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
import type { RegistryConfig } from './config';
import type { RetentionsInUse } from './models/retention';

/** What each table is keyed by and what must hold before a past partition goes. */
export function registryTables(): PartitionedTable[] {
  return [
    // keep_until = created_at + the tenant's retention of events when the event was written.
    { table: 'events', key: 'keep_until', archive: 'events', gates: ['archive'], offsets: [retentionMs(undefined, 'events')] },
    // keep_until = created_at + the tenant's retention of deliveries; never while one of them is pending.
    {
      table: 'webhook_deliveries',
      key: 'keep_until',
      archive: 'deliveries',
      gates: ['no_pending', 'archive'],
      offsets: [retentionMs(undefined, 'deliveries')],
    },
    // An attempt carries its delivery's keep_until, is archived in its delivery's line, and leaves after it.
    {
      table: 'webhook_attempts',
      key: 'keep_until',
      archive: null,
      gates: ['after:webhook_deliveries'],
      offsets: [retentionMs(undefined, 'deliveries')],
    },
    SEAL_OUTBOX_PARTITIONS,
  ];
}

const KIND_OF: Record<string, keyof RetentionsInUse> = {
  events: 'events',
  webhook_deliveries: 'deliveries',
  webhook_attempts: 'deliveries',
};

export function registryPartitions(
  pool: Pool,
  config: Pick<RegistryConfig, 'PARTITION_INTERVAL'>,
  retentions: { inUse(): Promise<RetentionsInUse> },
  metrics: ServiceMetrics,
  logger: Logger,
  archiveGate: ArchiveGate = closedArchiveGate,
): PartitionMaintenance {
  return new PartitionMaintenance({
    pool,
    tables: registryTables(),
    intervalMs: config.PARTITION_INTERVAL,
    archiveGate,
    offsets: async (t) => (KIND_OF[t.table] ? (await retentions.inUse())[KIND_OF[t.table]] : []),
    hooks: partitionMetrics(metrics, logger),
  });
}
