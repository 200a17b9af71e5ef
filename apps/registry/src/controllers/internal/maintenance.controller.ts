import { Controller, Get, Middlewares, Path, Post, Response, Route, Tags } from '@tsoa/runtime';
import { PARTITION_NAME, type MaintenancePartitionsAnswer, type PartitionDropAnswer } from '@arbiter/db';
import type { Request } from 'express';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import type { RetentionsInUse } from '../../models/retention';
import { badRequest } from '../../domain/errors';
import { checked } from './internal-input';

const partitionChecked = checked((req: Request) => {
  if (!PARTITION_NAME.test(String(req.params.partition ?? '')))
    throw badRequest('partition is not a partition name (<table>_p<YYYYMMDD>t<HHMM>)');
});

/**
 * The worker's maintenance job (docs/operations.md "Partitions"): the registry creates the partitions ahead of its
 * partitioned tables and lists the past ones; the worker archives what must be archived, then asks for each drop.
 */
@Route('internal/v1/maintenance')
@Tags('Maintenance')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
export class InternalMaintenanceController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** Creates the partitions ahead (idempotent) and answers the past partitions, with the archive kind of each. */
  @Post('partitions')
  async runPartitions(): Promise<MaintenancePartitionsAnswer> {
    return this.ctx.partitions.run();
  }

  /**
   * Drops a past partition when its gate is open (re-checked here: an archived kind only once every tenant's rows
   * are in a recorded archive segment, an outbox only empty, deliveries not while one is pending); otherwise
   * `{dropped: false, reason}`.
   */
  @Post('partitions/{partition}/drop')
  @Middlewares(partitionChecked)
  @Response<ErrorBody>(400, 'Malformed partition name')
  async dropPartition(@Path() partition: string): Promise<PartitionDropAnswer> {
    return this.ctx.partitions.drop(partition);
  }

  /**
   * The retentions the tenants' settings name (defaults included), per kind: the verdict gateway creates the
   * partitions where the consultations written now will land.
   */
  @Get('retentions')
  async retentionsInUse(): Promise<RetentionsInUse> {
    return this.ctx.retentions.inUse();
  }
}
