import { Controller, Get, Middlewares, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { ProofBundle } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

@Middlewares(refuseUnstorable)
@Route('bundles')
@Tags('Bundles')
@Response<ErrorBody>(400, 'VALIDATION_ERROR: e.g. a path or query string holding U+0000')
@Response<ErrorBody>(401, 'UNAUTHORIZED')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
export class BundlesController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * One signed bundle, exactly as signed (verify it with scripts/verify-ledger-bundle.mjs). Another tenant's answers 404.
   * @summary Get a signed bundle
   * @param bundle_id The bundle id (`bnd-`).
   */
  @Get('{bundle_id}')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async getBundle(@Request() req: AuthedRequest, @Path() bundle_id: string): Promise<ProofBundle> {
    return this.ctx.bundles.get(req.user, bundle_id);
  }
}
