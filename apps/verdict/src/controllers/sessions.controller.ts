import { Controller, Delete, Post, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { SessionCreated } from '../models/sessions';
import { clearedSessionCookie } from '../domain/session-cookie';

@Route('v1/sessions')
@Tags('Identity')
export class SessionsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Opens a session for the API key (docs/verdicts.md "Authentication"): the answer sets the cookie
   * `arbiter_session` (HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=3600), which then
   * authenticates check and resolve in place of X-API-Key, and nothing else. The session holds only
   * the key's `check` permission, as the key holds it at each use: it ends at once when the key is
   * revoked or expires. Needs an X-API-Key with `check` (a session cannot open another).
   * @summary Open a browser session
   */
  @Post()
  @Security('apiKey', ['check'])
  @SuccessResponse<{ 'Set-Cookie': string }>(201, 'Opened; the cookie is in Set-Cookie')
  @Response<ErrorBody>(401, 'missing_credentials, invalid_credentials')
  @Response<ErrorBody>(403, 'principal_deactivated, insufficient_permission')
  async openSession(@Request() req: AuthedRequest): Promise<SessionCreated> {
    const session = await this.ctx.sessions.open(req.user, req.headers);
    this.setStatus(201);
    this.setHeader('Set-Cookie', session.cookie);
    this.setHeader('Cache-Control', 'no-store');
    return { expires_at: session.expires_at };
  }

  /**
   * Ends the session whose cookie `arbiter_session` is sent (no X-API-Key needed) and tells the
   * browser to drop the cookie. 401 missing_credentials without the cookie, invalid_credentials when
   * it names no live session.
   * @summary End a browser session
   */
  @Delete()
  @SuccessResponse(204, 'Ended')
  @Response<ErrorBody>(401, 'missing_credentials, invalid_credentials')
  async endSession(@Request() req: AuthedRequest): Promise<void> {
    await this.ctx.sessions.end(req.headers);
    this.setStatus(204);
    this.setHeader('Set-Cookie', clearedSessionCookie());
  }
}
