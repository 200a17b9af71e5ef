import { Controller, Middlewares, Path, Post, Response, Route, Tags } from '@tsoa/runtime';
import { PARTITION_NAME, type MaintenancePartitionsAnswer, type PartitionDropAnswer } from '@arbiter/db';
import type { VerdictContext } from '../../context';
import type { ErrorBody } from '../../models/errors';
import { pathIdsChecked } from './internal-input';

/** A partition name as maintenance gives them (docs/operations.md "Partitions"). */
const partitionChecked = pathIdsChecked({
  partition: { pattern: PARTITION_NAME, what: 'a partition name (<table>_p<YYYYMMDD>t<HHMM>)' },
});

/**
 * The worker's maintenance job (docs/operations.md "Partitions"): the gateway creates the partitions ahead of its
 * partitioned tables and lists the past ones; the worker archives what must be archived, then asks for each drop.
 */
@Route('internal/v1/maintenance/partitions')
@Tags('Maintenance')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
export class InternalMaintenanceController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /** Creates the partitions ahead (idempotent) and answers the past partitions, with the archive kind of each. */
  @Post()
  async runPartitions(): Promise<MaintenancePartitionsAnswer> {
    return this.ctx.partitions.run();
  }

  /**
   * Drops a past partition when its gate is open (re-checked here: an archived kind only once every tenant's rows
   * are in a recorded archive segment, an outbox only empty); otherwise `{dropped: false, reason}`.
   */
  @Post('{partition}/drop')
  @Middlewares(partitionChecked)
  @Response<ErrorBody>(400, 'Malformed partition name')
  async dropPartition(@Path() partition: string): Promise<PartitionDropAnswer> {
    return this.ctx.partitions.drop(partition);
  }
}
