import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import { hasPermission, type AuthenticatedIdentity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import type { PublishedJwk, RotationMode } from '@arbiter/crypto';
import { publishKeysChanged } from '../clients/change-feed';
import { insufficientPermission, registryUnavailable, tenantNotFound } from '../domain/errors';
import { ownTenant } from '../domain/tenant-access';
import type { KeySet, SigningKeyRotation, SigningKeySetup } from '../models/keys';
import { RegistryUnavailableError, type RegistryInternalClient } from '@arbiter/internal-api';
import type { SnapshotStore } from './snapshot-store.service';
import type { VerdictKeys } from '../keys';

const JWKS_CACHE_MS = 5_000;
const SLUG_CACHE_MS = 600_000;
const SLUG_NEGATIVE_CACHE_MS = 5_000;

/**
 * The signing-key endpoints: setup, rotation and listing (admin; a platform admin may name any
 * tenant), and the public JWKS addressed by tenant slug (no authentication). Rotations are
 * announced on Redis so every replica drops its cached signer at once.
 */
export class SigningKeysService {
  private readonly slugs = new Map<string, { id: string | null; until: number }>();
  private readonly jwks = new Map<string, { keys: PublishedJwk[]; until: number }>();

  constructor(
    private readonly keys: VerdictKeys,
    private readonly registry: RegistryInternalClient,
    private readonly snapshots: SnapshotStore,
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** POST /<tenant_id>/v1/signing-keys: makes sure the tenant has a current key (idempotent). */
  async setup(identity: AuthenticatedIdentity, tenantParam: string): Promise<SigningKeySetup> {
    const tenantId = await this.adminTenant(identity, tenantParam);
    const { key, created } = await this.keys.ensureCurrent(tenantId);
    if (created) await this.announce(tenantId, key.kid, 'setup');
    return { tenant_id: tenantId, current_kid: key.kid, created, keys: await this.keys.publicKeys(tenantId) };
  }

  async list(identity: AuthenticatedIdentity, tenantParam: string): Promise<KeySet> {
    const tenantId = await this.adminTenant(identity, tenantParam);
    return { keys: await this.keys.publicKeys(tenantId) };
  }

  /** POST /<tenant_id>/v1/signing-keys/rotate */
  async rotate(identity: AuthenticatedIdentity, tenantParam: string, mode: RotationMode): Promise<SigningKeyRotation> {
    const tenantId = await this.adminTenant(identity, tenantParam);
    const rotation = await this.keys.rotate(tenantId, mode);
    await this.announce(tenantId, rotation.kid, mode);
    return rotation;
  }

  /** A key ring changed on this or another replica (or through the CLI). */
  keysChanged(tenantId: string): void {
    this.keys.invalidate(tenantId);
    this.jwks.delete(tenantId);
  }

  invalidateAll(): void {
    this.keys.invalidateAll();
    this.jwks.clear();
  }

  /** GET /v1/tenants/<slug>/jwks: every key the tenant ever had (docs/verdicts.md "Versioning"). */
  async jwksBySlug(slug: string): Promise<KeySet> {
    const tenantId = await this.tenantIdBySlug(slug);
    const now = Date.now();
    let cached = this.jwks.get(tenantId);
    if (!cached || cached.until <= now) {
      cached = { keys: await this.keys.publicKeys(tenantId), until: now + JWKS_CACHE_MS };
      this.jwks.set(tenantId, cached);
    }
    if (cached.keys.length === 0) {
      this.jwks.delete(tenantId); // a first key may appear at any moment
      throw new AppError(500, 'no_keys_configured', `Tenant ${slug} has no signing keys yet`);
    }
    return { keys: cached.keys };
  }

  private async tenantIdBySlug(slug: string): Promise<string> {
    const now = Date.now();
    const hit = this.slugs.get(slug);
    if (hit && hit.until > now) {
      if (!hit.id) throw tenantNotFound(slug);
      return hit.id;
    }
    let tenant: { id: string } | null;
    try {
      tenant = await this.registry.tenantBySlug(slug);
    } catch (err) {
      if (err instanceof RegistryUnavailableError) throw registryUnavailable();
      throw err;
    }
    if (this.slugs.size >= 10_000) this.slugs.delete(this.slugs.keys().next().value as string);
    // A slug never changes tenant, so a hit is kept long; a miss only briefly (the tenant may be created next).
    this.slugs.set(slug, { id: tenant?.id ?? null, until: now + (tenant ? SLUG_CACHE_MS : SLUG_NEGATIVE_CACHE_MS) });
    if (!tenant) throw tenantNotFound(slug);
    return tenant.id;
  }

  /** admin within the own tenant; platform_admin for any existing tenant. */
  private async adminTenant(identity: AuthenticatedIdentity, tenantParam: string): Promise<string> {
    if (!hasPermission(identity, 'admin')) throw insufficientPermission('admin');
    if (tenantParam === identity.tenant_id || tenantParam === identity.tenant_slug || !hasPermission(identity, 'platform_admin')) {
      return ownTenant(identity, tenantParam);
    }
    // A platform admin names another tenant: it must exist (the registry knows it).
    const snapshot = await this.snapshots.get(tenantParam).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'registry_unavailable') throw registryUnavailable();
      throw tenantNotFound(tenantParam);
    });
    return snapshot.tenantId;
  }

  private async announce(tenantId: string, kid: string, mode: string): Promise<void> {
    this.keysChanged(tenantId);
    await publishKeysChanged(this.redis, { tenant_id: tenantId, kid, mode }, this.logger);
  }
}
