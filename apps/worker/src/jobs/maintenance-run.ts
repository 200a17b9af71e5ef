import { LoggedJobFailure, type JobHandler, type maintenanceJob, type MaintenanceResult } from '@arbiter/queue';
import type { DuePartition, MaintenancePartitionsAnswer, PartitionDropAnswer } from '@arbiter/internal-api';
import type { MaintainedService } from '../archive';

/** What the maintenance run needs of a service's internal API. */
export interface MaintainedClient {
  runPartitions(): Promise<MaintenancePartitionsAnswer>;
  dropPartition(partition: string): Promise<PartitionDropAnswer>;
}

export interface MaintenanceDeps {
  services: Record<MaintainedService, MaintainedClient>;
  /** The archive step (apps/worker/src/archive `archiverFor`); replaced in tests. */
  archiveDue: (service: MaintainedService, due: readonly DuePartition[]) => Promise<void>;
  /** Told of each partition dropped (the worker's metrics). */
  onDropped?: (service: MaintainedService, partition: DuePartition) => void;
}

/** Whether a failure is a service that did not answer at all (`<service>_unreachable`: not started yet, or gone). */
const unreachable = (err: unknown): boolean => /_unreachable$/.test(String((err as { code?: unknown }).code));

/**
 * maintenance.v1.run (docs/operations.md "Partitions"): for the registry, then the verdict gateway, create the
 * partitions ahead and take the past ones; archive those of an archived kind; then ask for each drop, which the
 * service grants only when its gate is open. A failure leaves the partitions of that step in place for the next
 * run; the other service is still maintained, and the job fails at the end so the run is counted as failed. A run
 * whose every failure is a service it could not reach (the worker started before the services) says so in one `warn`
 * line without a stack (docs/operations.md "Partitions"); any other failure is an error, with its stack.
 */
export function runMaintenance(deps: MaintenanceDeps): JobHandler<typeof maintenanceJob> {
  const archive = deps.archiveDue;
  return async (_payload, ctx) => {
    const result: MaintenanceResult = { due: 0, dropped: 0, kept: {} };
    const failures: Array<{ what: string; err: unknown }> = [];
    for (const service of ['registry', 'verdict'] as const) {
      const client = deps.services[service];
      let due: DuePartition[];
      try {
        due = (await client.runPartitions()).due;
      } catch (err) {
        failures.push({ what: service, err });
        continue;
      }
      result.due += due.length;
      let droppable = due;
      const archived = due.filter((d) => d.archive !== null);
      if (archived.length) {
        try {
          await archive(service, archived);
        } catch (err) {
          // Nothing of an archived kind goes this run; the service's gate would refuse it anyway.
          failures.push({ what: `${service} archive`, err });
          droppable = due.filter((d) => d.archive === null);
          result.kept.archive_failed = (result.kept.archive_failed ?? 0) + archived.length;
        }
      }
      for (const d of droppable) {
        try {
          const answer = await client.dropPartition(d.partition);
          if (answer.dropped) {
            result.dropped++;
            deps.onDropped?.(service, d);
          } else {
            const reason = answer.reason ?? 'unknown';
            result.kept[reason] = (result.kept[reason] ?? 0) + 1;
          }
        } catch (err) {
          failures.push({ what: `${service} drop ${d.partition}`, err });
        }
      }
    }
    const failed = failures.map((f) => `${f.what}: ${(f.err as Error).message}`);
    if (failures.length && failures.every((f) => unreachable(f.err))) {
      ctx.log.warn({ ...result, failures: failed }, 'maintenance run: a service did not answer (not up yet?); tried again next run');
      throw new LoggedJobFailure(`maintenance run failed: ${failed.join('; ')}`);
    }
    ctx.log.info({ ...result }, 'maintenance run');
    if (failures.length) throw new Error(`maintenance run failed: ${failed.join('; ')}`);
    return result;
  };
}
