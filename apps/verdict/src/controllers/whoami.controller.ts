import { Controller, Get, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest, Identity } from '@arbiter/auth';
import type { ErrorBody } from '../models/errors';

/** Who the presented key belongs to: tenant, principal, permissions. An operator's first check of a new key. */
@Route('v1/whoami')
@Tags('Identity')
export class WhoAmIController extends Controller {
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(401, 'Missing or invalid API key')
  async whoAmI(@Request() req: AuthedRequest): Promise<Identity> {
    return req.user;
  }
}
