import type { Request } from 'express';
import type { Authenticator } from './authenticate';
import type { AuthenticatedIdentity, Identity } from './identity';

/**
 * tsoa's authentication hook for every service: `@Security(<scheme>, ['permission'])` on a handler
 * asks the app's Authenticator (set on `app.locals.authenticator`) and puts the identity on `req.user`.
 */
export async function expressAuthentication(request: Request, _securityName: string, scopes?: string[]): Promise<AuthenticatedIdentity> {
  const authenticator = request.app.locals.authenticator as Authenticator | undefined;
  if (!authenticator) throw new Error('app.locals.authenticator is not set');
  return authenticator.authenticate(request.headers, scopes ?? []);
}

export type AuthedRequest = Request & { user: AuthenticatedIdentity };

/**
 * GET /v1/whoami of every service: the identity the authentication hook resolved for the presented
 * key (tenant, principal, permissions), as it is. Each service keeps a thin tsoa class for it
 * (controllers/whoami.controller.ts), since tsoa documents a route from its own class only and the
 * services document different errors for it.
 */
export function whoAmI(request: AuthedRequest): Identity {
  return request.user;
}
