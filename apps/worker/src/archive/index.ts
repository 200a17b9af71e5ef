// The archive step of the maintenance job (docs/operations.md "Partitions"): before a past partition of an
// archived kind is dropped, its rows are written, tenant by tenant, as archive segments and recorded in the owning
// service. Until that is built this does nothing, and the services' drop gate stays closed for archived kinds
// (nothing leaves PostgreSQL unarchived).
import type { DuePartition } from '@arbiter/internal-api';

/** The service owning a partition. */
export type MaintainedService = 'verdict' | 'registry';

/** Archives the due partitions of `service` that have an archive kind; throws to leave them for the next run. */
export async function archiveDue(_service: MaintainedService, _due: readonly DuePartition[]): Promise<void> {
  return;
}
