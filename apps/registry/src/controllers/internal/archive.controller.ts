import type { Readable } from 'node:stream';
import { Body, Controller, Get, Middlewares, Path, Post, Produces, Response, Route, SuccessResponse, Tags } from '@tsoa/runtime';
import { type ArchiveSegmentRecord, type PartitionTenantsAnswer, type RecordSegmentAnswer } from '@arbiter/db';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import { badRequest, notFound } from '../../domain/errors';
import { checked } from './internal-input';

const PARTITION = /^[a-z_]{1,60}_(p\d{8}t\d{4}(\d{2})?|legacy)$/;
const TENANT = /^tnt-[0-9a-z_.-]{1,100}$/;

const partitionChecked = checked((req) => {
  if (!PARTITION.test(String(req.params.partition ?? '')))
    throw badRequest('partition is not a partition name (<table>_p<YYYYMMDD>t<HHMM>)');
});
const tenantChecked = checked((req) => {
  if (!TENANT.test(String(req.params.tenant_id ?? ''))) throw badRequest('tenant_id is not a tenant id (tnt-…)');
});

/**
 * The worker's half of archiving (docs/operations.md "Archive"): before a past partition of events or webhook
 * deliveries is dropped, it reads who has rows in it, streams each tenant's rows into a segment, seals the segment's
 * manifest in the ledger and records the segment here; the drop's gate then finds every tenant covered.
 */
@Route('internal/v1/maintenance/partitions')
@Tags('Archive')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed partition name, tenant id or body')
@Response<ErrorBody>(404, 'No such partition of an archived table')
export class InternalArchiveController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** The partition's bounds and each tenant with rows in it, with their count. */
  @Get('{partition}/tenants')
  @Middlewares(partitionChecked)
  async partitionTenants(@Path() partition: string): Promise<PartitionTenantsAnswer> {
    const answer = await this.ctx.archiveSegments.partitionTenantsAnyTenant(partition);
    if (answer === null) throw notFound('Archived partition', partition);
    return answer;
  }

  /**
   * One tenant's rows of the partition as JSON Lines (`application/x-ndjson`), ordered by id, each a row as stored (a
   * delivery with its attempts), read through a cursor.
   */
  @Get('{partition}/tenants/{tenant_id}/rows')
  @Middlewares(partitionChecked, tenantChecked)
  @Produces('application/x-ndjson')
  async partitionRows(@Path() partition: string, @Path() tenant_id: string): Promise<Readable> {
    const p = await this.ctx.archiveSegments.partitionAnyTenant(partition);
    if (p === null) throw notFound('Archived partition', partition);
    this.setHeader('Content-Type', 'application/x-ndjson');
    return this.ctx.archiveSegments.ndjsonAnyTenant(p, tenant_id);
  }

  /** Records a segment the worker wrote, read back, verified and sealed; a second record answers the first (200). */
  @Post('{partition}/segments')
  @Middlewares(partitionChecked)
  @SuccessResponse(201, 'Recorded')
  async recordSegment(@Path() partition: string, @Body() body: ArchiveSegmentRecord): Promise<RecordSegmentAnswer> {
    const p = await this.ctx.archiveSegments.partitionAnyTenant(partition);
    if (p === null) throw notFound('Archived partition', partition);
    const answer = await this.ctx.archiveSegments.recordCheckedAnyTenant(p, body);
    if ('problem' in answer) throw badRequest(answer.problem);
    this.setStatus(answer.created ? 201 : 200);
    return answer;
  }
}
