import type { TenantId } from '@arbiter/auth';
import { forbidden } from '../domain/errors';
import type { ApiKeyRow, IdentityRepository } from '../repositories/identity.repository';

/**
 * A principal holding a live platform_admin key, or whose console holds platform_admin, is the platform's: only a
 * platform admin may change it, mint keys for it or make it a sign-in link (a tenant admin of the platform tenant
 * included), else the tenant admin would act, and be recorded, under its name (docs/identity.md "Privilege
 * boundaries"). The caller checks that it is not a platform admin itself.
 */
export async function refusePlatformAdminPrincipal(
  repo: IdentityRepository,
  tenantId: TenantId,
  principalId: string,
  action: string,
): Promise<void> {
  const principal = await repo.findPrincipal(tenantId, principalId);
  if (principal?.console_permissions.includes('platform_admin')) {
    throw forbidden(`Only a platform admin may ${action} a principal holding platform_admin`);
  }
  const now = Date.now();
  const live = (k: ApiKeyRow) =>
    !k.revoked_at && (!k.expires_at || k.expires_at.getTime() > now) && k.permissions.includes('platform_admin');
  let after: { created_at: Date; id: string } | undefined;
  for (;;) {
    const keys = await repo.listKeys(tenantId, 1000, after, principalId);
    if (keys.some(live)) throw forbidden(`Only a platform admin may ${action} a principal holding platform_admin`);
    if (keys.length <= 1000) return;
    after = { created_at: keys[999].created_at, id: keys[999].id };
  }
}
