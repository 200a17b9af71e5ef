import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { ErasureBody, ErasureList, ErasureResult } from '../models/erasures';

@Route('{tenant_id}/v1/erasures')
@Tags('Erasures')
export class ErasuresController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Destroys the data subject's keys (docs/operations.md "Erasure"): its sensitive values, wherever they are kept
   * (records, archive, backups), can no longer be decrypted, and reads show them as `erased`; every hash, signature,
   * seal and proof still verifies. The erasure (the subject's commitment, never the subject) is sealed in
   * `arbiter.<tenant_id>.erasures`. 201 for the first erasure of a subject; a second answers the first with 200.
   * `keys_deleted` says whether this call found a key to delete (0: no check named the subject since its last erasure,
   * or ever). Needs `admin` on a key not restricted by `scope_ids` (an erasure reaches every scope).
   * @summary Erase a data subject
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   */
  @Post()
  @Security('apiKey')
  @SuccessResponse(201, 'Erased')
  @Response<ErasureResult>(200, 'Already erased: the first erasure')
  @Response<ErrorBody>(
    400,
    'validation_failed: not exactly one of subject and subject_commitment, a subject empty, too long or not a string or number, a malformed subject_commitment',
  )
  @Response<ErrorBody>(
    403,
    'cross_tenant_forbidden, insufficient_permission (admin; reason scope_restricted for a key restricted by scope_ids)',
  )
  async createErasure(@Path() tenant_id: string, @Request() req: AuthedRequest, @Body() body: ErasureBody): Promise<ErasureResult> {
    const { erasure, created } = await this.ctx.erasures.erase(req.user, tenant_id, body);
    this.setStatus(created ? 201 : 200);
    return erasure;
  }

  /**
   * The tenant's erasures, newest first: what to erase again after restoring a database backup taken before them
   * (docs/operations.md "Erasure"). Needs `admin` on a key not restricted by `scope_ids`.
   * @summary List erasures
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param limit At most this many (1 to 1000, default 50).
   * @param cursor The `next_cursor` of the previous page.
   */
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(400, 'invalid_query, invalid_cursor')
  @Response<ErrorBody>(
    403,
    'cross_tenant_forbidden, insufficient_permission (admin; reason scope_restricted for a key restricted by scope_ids)',
  )
  async listErasures(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<ErasureList> {
    return this.ctx.erasures.list(req.user, tenant_id, { limit, cursor });
  }
}
