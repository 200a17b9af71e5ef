export {
  applyMigrations,
  readMigrations,
  pendingMigrations,
  sqlChecksum,
  codeChecksum,
  MigrationError,
  PRISMA_MIGRATE_LOCK,
  EARLIER_CHECKSUMS_FILE,
  NO_TRANSACTION,
  migrationStatements,
} from './migrations';
export type { Migration, ApplyResult } from './migrations';
export { createPool, createPrismaClient, withMigratedPool } from './pool';
export type { DatabaseOptions } from './pool';
export { isUniqueViolation, isSerializationFailure, isRowFault } from './pg-errors';
export { bisectOnRowFault } from './bisect';
export type { BisectOptions, RowOutcome } from './bisect';
export { jsonArrayParam } from './json-array';
export { newId, newTimeOrderedId, timeOfOrderedId } from './ids';
export { migrationsCurrentCheck, migrationsDir } from './readiness';
export { GroupCommitWriter } from './group-commit';
export { BatchPruner } from './batch-pruner';
export type { PruneBatch } from './batch-pruner';
export type { GroupCommitOptions } from './group-commit';
export {
  SealOutboxStore,
  SEAL_LEASE_LIMITS,
  SEAL_OUTBOX_PARTITIONS,
  sealLeaseProblem,
  sealDoneProblem,
  sealReleaseProblem,
  approvalSealRow,
  keySealRow,
  insertSealRow,
} from './seal-outbox';
export type {
  SealRequest,
  LeasedSeal,
  SealLease,
  SealLeaseRequest,
  SealDoneRequest,
  SealDoneAnswer,
  SealReleaseRequest,
  SealReleaseAnswer,
  ApprovalSealPayload,
  KeySealPayload,
  NewSealRow,
  Queryable,
} from './seal-outbox';
export { ArchiveSegmentStore, ARCHIVED_TABLES, archiveSegmentProblem, archiveSegmentMemberProblem } from './archive-segments';
export type {
  ArchivedTable,
  ArchivablePartition,
  PartitionTenant,
  PartitionTenantsAnswer,
  RecordSegmentAnswer,
  ArchiveSegmentRecord,
  StoredArchiveSegment,
} from './archive-segments';
export {
  alignDown,
  closedArchiveGate,
  defaultPartitionName,
  duePartition,
  isPartitionNameOf,
  missingPartitions,
  parsePartitionBound,
  partitionName,
  pastPartitions,
  wantedRanges,
  PARTITION_INTERVAL_BOUNDS,
  PARTITION_NAME,
  RETENTION_DEFAULTS,
  retentionMs,
} from './partitions/plan';
export type {
  ArchiveGate,
  ArchiveKind,
  DropGate,
  DuePartition,
  ExistingPartition,
  KeyRange,
  MaintenancePartitionsAnswer,
  PartitionDropAnswer,
  PartitionKey,
  PartitionedTable,
  PlannedPartition,
} from './partitions/plan';
export { PartitionMaintenance } from './partitions/maintenance';
export type { MaintenanceHooks, PartitionMaintenanceOptions } from './partitions/maintenance';
