import type { ArbiterJobCatalog, HandlerMap } from '@arbiter/queue';
import type { RegistryInternalClient, VerdictInternalClient } from '@arbiter/internal-api';
import type { LedgerSeals } from './ledger-seal';
import { archiverFor, type ArchiveDeps } from '../archive';
import { ping } from './ping';
import { deliverWebhook } from './webhook-deliver';
import { sendNotification } from './notification-send';
import { sealBatch } from './ledger-seal';
import { runMaintenance, type MaintenanceDeps } from './maintenance-run';

export interface JobDeps {
  registry: RegistryInternalClient;
  verdict: VerdictInternalClient;
  ledger: LedgerSeals;
  /** The archive step of partition maintenance (docs/operations.md "Archive"). */
  archive?: ArchiveDeps;
  /** Told when an attempt failed and the registry scheduled the next one (the relay wakes at that time). */
  onRetryScheduled?: (at: Date) => void;
  /** Told of each partition the maintenance job dropped (the worker's metrics). */
  onPartitionDropped?: MaintenanceDeps['onDropped'];
}

/** One handler per catalog job; startWorkers checks the map against the catalog at start. */
export function createJobHandlers(deps: JobDeps): HandlerMap<ArbiterJobCatalog> {
  return {
    'system.v1.ping': ping,
    'webhook.v1.deliver': deliverWebhook(deps.registry, deps.onRetryScheduled),
    'notification.v1.send': sendNotification(deps.registry, deps.onRetryScheduled),
    'ledger.v1.seal': sealBatch({ ledger: deps.ledger, owners: { verdict: deps.verdict, registry: deps.registry } }),
    'maintenance.v1.run': runMaintenance({
      services: { verdict: deps.verdict, registry: deps.registry },
      // Without the archive's dependencies nothing is archived: the services' gates keep every archived partition.
      archiveDue: deps.archive ? archiverFor(deps.archive) : async () => undefined,
      onDropped: deps.onPartitionDropped,
    }),
  };
}
