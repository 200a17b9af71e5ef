import { Controller, Get, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import { whoAmI, type AuthedRequest, type Identity } from '@arbiter/auth';
import type { ErrorBody } from '../models/errors';

/** Who the presented key belongs to: tenant, principal, permissions. An operator's first check of a new key (the one handler: @arbiter/auth whoAmI). */
@Route('v1/whoami')
@Tags('Identity')
export class WhoAmIController extends Controller {
  /**
   * @summary The caller's identity
   */
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(401, 'Missing or invalid API key')
  async whoAmI(@Request() req: AuthedRequest): Promise<Identity> {
    return whoAmI(req);
  }
}
