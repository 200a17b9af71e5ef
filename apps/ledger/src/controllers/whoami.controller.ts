import { Controller, Get, Middlewares, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import { whoAmI, type AuthedRequest, type Identity } from '@arbiter/auth';
import type { ErrorBody } from '../models/errors';
import { refuseUnstorable } from '../http/unstorable';

/** Who the presented key belongs to: tenant, principal, permissions. An operator's first check of a new key (the one handler: @arbiter/auth whoAmI). */
@Middlewares(refuseUnstorable)
@Route('v1/whoami')
@Tags('Identity')
export class WhoAmIController extends Controller {
  /**
   * @summary The caller's identity and rate-limit tier
   */
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: a query string holding U+0000')
  @Response<ErrorBody>(401, 'Missing or invalid API key')
  @Response<ErrorBody>(
    429,
    "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
  )
  async whoAmI(@Request() req: AuthedRequest): Promise<Identity> {
    return whoAmI(req);
  }
}
