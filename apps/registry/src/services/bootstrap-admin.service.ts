import type { Logger } from 'pino';
import { apiKeyPrefix, hashApiKey } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import type { PrismaClient } from '../generated/prisma/client';
import { IdentityRepository } from '../repositories/identity.repository';

export const PLATFORM_TENANT_SLUG = 'platform';

/**
 * BOOTSTRAP_ADMIN_KEY (README.md "Configuration"): ensures a platform-admin principal holding exactly
 * that key. Idempotent across restarts and replicas (one transaction under an advisory lock);
 * a bootstrap key from an earlier configuration is revoked.
 */
export async function ensureBootstrapAdmin(prisma: PrismaClient, key: string, logger: Logger): Promise<void> {
  const keyHash = hashApiKey(key);
  await prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('arbiter:bootstrap-admin'))`);
    const repo = new IdentityRepository(tx);
    const now = new Date();
    const revoked = await repo.revokeOtherBootstrapKeysAnyTenant(keyHash, now);
    if (revoked.count) logger.info({ count: revoked.count }, 'revoked earlier bootstrap admin keys');
    const existing = await repo.findKeyByHash(keyHash);
    if (existing) {
      if (existing.revoked_at || !existing.principal.active) {
        throw new Error('BOOTSTRAP_ADMIN_KEY names a key that was revoked or whose principal was deactivated; choose a new key');
      }
      return;
    }
    const tenant =
      (await repo.findTenantBySlug(PLATFORM_TENANT_SLUG)) ??
      (await repo.createTenant({ id: newId('tnt-'), slug: PLATFORM_TENANT_SLUG, name: 'Platform', settings: {}, created_by: null }));
    const principal = await repo.createPrincipal(tenant.id, {
      id: newId('hum-'),
      kind: 'human',
      name: 'platform-admin',
      roles: ['role-platform-admin'],
      // Its console sessions hold what its key holds (docs/identity.md "Console sign-in").
      console_permissions: ['platform_admin'],
      created_by: null,
    });
    await repo.createKey(tenant.id, {
      id: newId('key-'),
      principal_id: principal.id,
      key_hash: keyHash,
      key_prefix: apiKeyPrefix(key),
      permissions: ['platform_admin'],
      scope_ids: [],
      expires_at: null,
      bootstrap: true,
      created_by: null,
    });
    logger.info({ tenant_id: tenant.id, principal_id: principal.id }, 'bootstrap platform admin created');
  });
}
