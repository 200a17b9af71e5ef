import type { Readable } from 'node:stream';
import { Body, Controller, Get, Middlewares, Path, Post, Produces, Response, Route, SuccessResponse, Tags } from '@tsoa/runtime';
import { type ArchiveSegmentRecord, type PartitionTenantsAnswer, type RecordSegmentAnswer } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { VerdictContext } from '../../context';
import { badRequest } from '../../domain/errors';
import type { ErrorBody } from '../../models/errors';
import { pathIdsChecked, TENANT_ID } from './internal-input';

const idsChecked = pathIdsChecked({
  partition: { pattern: /^[a-z_]{1,60}_(p\d{8}t\d{4}(\d{2})?|legacy)$/, what: 'a partition name (<table>_p<YYYYMMDD>t<HHMM>)' },
});
const tenantChecked = pathIdsChecked({ tenant_id: { pattern: TENANT_ID, what: 'a tenant id (tnt-…)' } });

const partitionNotFound = (partition: string) =>
  new AppError(404, 'partition_not_found', `${partition} is not a partition of an archived table of this service`, { partition });

/**
 * The worker's half of archiving (docs/operations.md "Archive"): before a past partition of consultations is dropped,
 * it reads who has rows in it, streams each tenant's rows into a segment, seals the segment's manifest in the ledger
 * and records the segment here; the drop's gate then finds every tenant covered.
 */
@Route('internal/v1/maintenance/partitions')
@Tags('Archive')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed partition name, tenant id or body')
@Response<ErrorBody>(404, 'No such partition of an archived table')
export class InternalArchiveController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /** The partition's bounds and each tenant with rows in it, with their count. */
  @Get('{partition}/tenants')
  @Middlewares(idsChecked)
  async partitionTenants(@Path() partition: string): Promise<PartitionTenantsAnswer> {
    return (await this.ctx.archiveSegments.partitionTenantsAnyTenant(partition)) ?? Promise.reject(partitionNotFound(partition));
  }

  /**
   * One tenant's rows of the partition as JSON Lines (`application/x-ndjson`), ordered by id, each a row as stored
   * (a consultation's `record` exactly as it was hashed and signed), read through a cursor.
   */
  @Get('{partition}/tenants/{tenant_id}/rows')
  @Middlewares(idsChecked, tenantChecked)
  @Produces('application/x-ndjson')
  async partitionRows(@Path() partition: string, @Path() tenant_id: string): Promise<Readable> {
    const p = await this.ctx.archiveSegments.partitionAnyTenant(partition);
    if (p === null) throw partitionNotFound(partition);
    this.setHeader('Content-Type', 'application/x-ndjson');
    return this.ctx.archiveSegments.ndjsonAnyTenant(p, tenant_id);
  }

  /** Records a segment the worker wrote, read back, verified and sealed; a second record answers the first (200). */
  @Post('{partition}/segments')
  @Middlewares(idsChecked)
  @SuccessResponse(201, 'Recorded')
  async recordSegment(@Path() partition: string, @Body() body: ArchiveSegmentRecord): Promise<RecordSegmentAnswer> {
    const p = await this.ctx.archiveSegments.partitionAnyTenant(partition);
    if (p === null) throw partitionNotFound(partition);
    const answer = await this.ctx.archiveSegments.recordCheckedAnyTenant(p, body);
    if ('problem' in answer) throw badRequest('invalid_request', answer.problem);
    this.setStatus(answer.created ? 201 : 200);
    return answer;
  }
}
