import type { TenantId } from './tenant-id';

/** Permissions (docs/identity.md). */
export const PERMISSIONS = [
  'read',
  'write',
  'manage_rules',
  'manage_invariants',
  'approve',
  'check',
  'seal',
  'admin',
  'platform_admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface PrincipalInfo {
  id: string;
  kind: 'agent' | 'human';
  name: string;
  roles: string[];
  active: boolean;
}

// The shape as it travels (whoami's body, the introspection answer); code that acts for the caller
// takes an AuthenticatedIdentity. The doc comment below is the published schema's description.
/** Who is calling: what an API key resolves to, on every service. */
export interface Identity {
  key_id: string;
  tenant_id: string;
  tenant_slug: string;
  principal: PrincipalInfo;
  permissions: Permission[];
  /** Empty means every scope of the tenant. */
  scope_ids: string[];
  expires_at: string | null;
  /** The tenant's rate-limit override (enterprise tier), null for the standard tier. */
  rate_limit: RateLimitOverride | null;
}

/**
 * An Identity that the authentication layer produced (KeyResolver, Authenticator, tsoa's hook):
 * its tenant id is a TenantId, so it opens the caller's tenant in every repository. The brand
 * stays out of Identity itself, which is a documented response body (whoami).
 */
export interface AuthenticatedIdentity extends Identity {
  tenant_id: TenantId;
}

export interface RateLimitOverride {
  requests_per_minute: number;
  burst: number;
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * `admin` holds every permission inside its tenant; `platform_admin` holds everything.
 */
export function hasPermission(identity: Pick<Identity, 'permissions'>, needed: Permission): boolean {
  const held = identity.permissions;
  if (held.includes('platform_admin') || held.includes(needed)) return true;
  return needed !== 'platform_admin' && held.includes('admin');
}

/** Whether a key restricted to some scopes may touch this one. */
export function canAccessScope(identity: Pick<Identity, 'scope_ids'>, scopeId: string): boolean {
  return identity.scope_ids.length === 0 || identity.scope_ids.includes(scopeId);
}
