import type { Request } from 'express';
import { expressAuthentication as authenticate, requirePermission, type AuthenticatedIdentity, type Permission } from '@arbiter/auth';
import { ledgerAuthErrors } from './errors';
import type { KeyCheck } from './rate-limit';

/** Where the rate-limit middleware leaves what it learnt of the request's key (http/rate-limit.ts). */
export const KEY_CHECK_LOCAL = 'ledgerKeyCheck';

/**
 * tsoa's authentication hook. The rate-limit middleware has already authenticated the key of this
 * request (it needs it for the bucket): reuse its identity and only check the permissions, or throw
 * the error it got; otherwise authenticate as every service does (@arbiter/auth).
 */
export async function expressAuthentication(request: Request, securityName: string, scopes?: string[]): Promise<AuthenticatedIdentity> {
  const known = request.res?.locals[KEY_CHECK_LOCAL] as KeyCheck | undefined;
  if (known?.error) throw known.error;
  if (!known?.identity) return authenticate(request, securityName, scopes);
  for (const permission of scopes ?? []) requirePermission(known.identity, permission as Permission, ledgerAuthErrors);
  return known.identity;
}
