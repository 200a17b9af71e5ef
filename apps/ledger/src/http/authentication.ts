import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import { requirePermission, type Authenticator, type AuthenticatedIdentity, type Permission } from '@arbiter/auth';
import { ledgerAuthErrors } from '../domain/errors';

/**
 * What the rate limit (http/rate-limit.ts) learnt of the request's X-API-Key: its identity, or the error its
 * authentication answered (401, 403 for a deactivated principal, 503 when the registry cannot
 * tell), or neither when no key was sent. The route reuses it instead of asking the registry again.
 */
export interface KeyCheck {
  identity?: AuthenticatedIdentity;
  error?: unknown;
}

/** Where the rate-limit middleware leaves its KeyCheck of the request. */
export const KEY_CHECK_LOCAL = 'ledgerKeyCheck';

/**
 * The caller's identity, holding every one of `permissions`. The rate limit has usually
 * authenticated the key of this request already (it needs it for the bucket): reuse its identity and
 * only check the permissions, or throw the error it got; otherwise authenticate as every service does.
 * The one check of both doors of every route: the tsoa hook below and the seal lane (seal-route.ts).
 */
export async function authorize(
  authenticator: Authenticator,
  known: KeyCheck | undefined,
  headers: IncomingHttpHeaders,
  permissions: string[],
): Promise<AuthenticatedIdentity> {
  if (known?.error) throw known.error;
  if (!known?.identity) return authenticator.authenticate(headers, permissions);
  for (const permission of permissions) requirePermission(known.identity, permission as Permission, ledgerAuthErrors);
  return known.identity;
}

/** tsoa's authentication hook. */
export function expressAuthentication(request: Request, _securityName: string, scopes?: string[]): Promise<AuthenticatedIdentity> {
  const authenticator = request.app.locals.authenticator as Authenticator;
  return authorize(authenticator, request.res?.locals[KEY_CHECK_LOCAL] as KeyCheck | undefined, request.headers, scopes ?? []);
}
