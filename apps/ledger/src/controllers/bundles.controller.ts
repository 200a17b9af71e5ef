import { Controller, Get, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { ProofBundle } from '../models/ledger';

@Route('bundles')
@Tags('Bundles')
@Response<ErrorBody>(401, 'UNAUTHORIZED')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(429, 'RATE_LIMITED: the key\'s token bucket is empty; Retry-After says when to retry')
export class BundlesController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /** One signed bundle, exactly as signed (verify it with scripts/verify-ledger-bundle.mjs). Another tenant's answers 404. */
  @Get('{bundle_id}')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async getBundle(@Request() req: AuthedRequest, @Path() bundle_id: string): Promise<ProofBundle> {
    return this.ctx.bundles.get(req.user, bundle_id);
  }
}
