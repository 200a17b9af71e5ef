import { Controller, Get, Middlewares, Path, Query, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { StreamPage } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

@Middlewares(refuseUnstorable)
@Route('tenants')
@Tags('Streams')
@Response<ErrorBody>(401, 'UNAUTHORIZED')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
export class TenantsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The tenant's streams, oldest first. Only the key's own tenant: any other answers 404.
   * @param limit 1 to 1000, default 50
   * @param cursor next_cursor of the previous page
   * @summary List the tenant's streams
   * @param tenant_id The tenant id; it must be the API key's own tenant (any other answers 404).
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   */
  @Get('{tenant_id}/streams')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(400, 'VALIDATION_ERROR')
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async listStreams(
    @Request() req: AuthedRequest,
    @Path() tenant_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<StreamPage> {
    return this.ctx.facts.listStreams(req.user, tenant_id, { limit, cursor });
  }
}
