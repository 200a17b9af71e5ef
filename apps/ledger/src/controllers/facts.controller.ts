import { Controller, Get, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Fact } from '../models/ledger';

@Route('facts')
@Tags('Facts')
@Response<ErrorBody>(401, 'UNAUTHORIZED')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(429, 'RATE_LIMITED: the key\'s token bucket is empty; Retry-After says when to retry')
export class FactsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /** One fact with its hashes. Another tenant's fact answers 404. */
  @Get('{fact_id}')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async getFact(@Request() req: AuthedRequest, @Path() fact_id: string): Promise<Fact> {
    return this.ctx.facts.getFact(req.user, fact_id);
  }
}
