import type { ApiKey, Principal, Tenant, TenantSettings } from '../models/identity';
import type { ApiKeyRow, PrincipalRow, TenantRow } from '../repositories/identity.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    settings: row.settings as TenantSettings,
    status: 'active',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    created_by: row.created_by,
  };
}

export function presentPrincipal(row: PrincipalRow): Principal {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    kind: row.kind as Principal['kind'],
    name: row.name,
    roles: row.roles,
    active: row.active,
    status: row.active ? 'active' : 'deactivated',
    oidc_issuer: row.oidc_issuer,
    oidc_subject: row.oidc_subject,
    console_permissions: row.console_permissions as Principal['console_permissions'],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    created_by: row.created_by,
  };
}

export function keyStatus(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now = new Date()): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at <= now) return 'expired';
  return 'active';
}

export function presentKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    principal_id: row.principal_id,
    key_prefix: row.key_prefix,
    permissions: row.permissions as ApiKey['permissions'],
    scope_ids: row.scope_ids,
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    status: keyStatus(row),
    created_at: row.created_at.toISOString(),
    updated_at: (row.revoked_at ?? row.created_at).toISOString(),
    created_by: row.created_by,
  };
}
