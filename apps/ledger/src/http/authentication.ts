import type { Request } from 'express';
import { expressAuthentication as authenticate, requirePermission, type Identity, type Permission } from '@arbiter/auth';
import { ledgerAuthErrors } from './errors';

/** Where the rate-limit middleware leaves the identity it resolved (http/rate-limit.ts). */
export const IDENTITY_LOCAL = 'ledgerIdentity';

/**
 * tsoa's authentication hook. The rate-limit middleware has already resolved the key of this
 * request (it needs it for the bucket): reuse that identity and only check the permissions;
 * otherwise authenticate as every service does (@arbiter/auth).
 */
export async function expressAuthentication(request: Request, securityName: string, scopes?: string[]): Promise<Identity> {
  const known = request.res?.locals[IDENTITY_LOCAL] as Identity | undefined;
  if (!known) return authenticate(request, securityName, scopes);
  for (const permission of scopes ?? []) requirePermission(known, permission as Permission, ledgerAuthErrors);
  return known;
}
