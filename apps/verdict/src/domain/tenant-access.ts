import { hasPermission, type AuthenticatedIdentity, type Identity, type Permission, type TenantId } from '@arbiter/auth';
import { crossTenantForbidden, insufficientPermission } from './errors';

/**
 * The tenant a `/<tenant_id>/v1/...` path names must be the key's own (docs/identity.md: a key
 * only ever sees its own tenant). The segment may be the tenant id or its slug (the overview form
 * `/<deployment_prefix>/v1/...`, docs/verdicts.md "The gateway's API"). Returns the tenant id.
 */
export function ownTenant(identity: AuthenticatedIdentity, tenantParam: string): TenantId {
  if (tenantParam === identity.tenant_id || tenantParam === identity.tenant_slug) return identity.tenant_id;
  throw crossTenantForbidden('The path names another tenant than the API key belongs to');
}

/** 403 insufficient_permission unless the identity holds one of the permissions. */
export function requireAnyPermission(identity: Identity, permissions: readonly Permission[]): void {
  if (!permissions.some((p) => hasPermission(identity, p))) throw insufficientPermission(permissions.join(' or '));
}
