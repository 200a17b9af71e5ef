import { Controller, Get, Middlewares, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Fact } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

@Middlewares(refuseUnstorable)
@Route('facts')
@Tags('Facts')
@Response<ErrorBody>(400, 'VALIDATION_ERROR: e.g. a path or query string holding U+0000')
@Response<ErrorBody>(401, 'UNAUTHORIZED')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
export class FactsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * One fact with its hashes. Another tenant's fact answers 404.
   * @summary Get a fact
   * @param fact_id The fact id (`fct-`).
   */
  @Get('{fact_id}')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async getFact(@Request() req: AuthedRequest, @Path() fact_id: string): Promise<Fact> {
    return this.ctx.facts.getFact(req.user, fact_id);
  }
}
