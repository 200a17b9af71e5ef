import type { Request } from 'express';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import type { VerdictContext } from '../context';

/** The OpenAPI security scheme of the session cookie (docs/identity.md "Session cookie"). */
export const SESSION_SCHEME = 'session';

/**
 * The routes a session cookie authenticates: check and resolve (docs/verdicts.md "Authentication"); the
 * fast lane of check (check-lane.ts) asks the same SessionsService.authenticate.
 */
const SESSION_ROUTES = new Set(['/:tenant_id/v1/check', '/:tenant_id/v1/resolve']);

const answers = new WeakMap<Request, Promise<AuthenticatedIdentity>>();

/**
 * tsoa's authentication hook. Everywhere the X-API-Key alone (a cookie alone is 401
 * missing_credentials); on check and resolve the key or else the session cookie. tsoa asks every
 * scheme of an operation at once and answers the last failure, so on those routes each scheme gets
 * the one answer of this request.
 */
export function expressAuthentication(request: Request, securityName: string, scopes: string[] = []): Promise<AuthenticatedIdentity> {
  const ctx = request.app.locals.ctx as VerdictContext;
  const route: unknown = request.route?.path;
  if (securityName !== SESSION_SCHEME && !(typeof route === 'string' && SESSION_ROUTES.has(route))) {
    return ctx.authenticator.authenticate(request.headers, scopes);
  }
  let answer = answers.get(request);
  if (!answer) {
    answer = ctx.sessions.authenticate(request.headers, scopes);
    answers.set(request, answer);
  }
  return answer;
}
