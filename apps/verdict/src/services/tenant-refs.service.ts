import { registryUnavailable } from '../domain/errors';
import { RegistryUnavailableError, type RegistryInternalClient } from '@arbiter/internal-api';
import type { SnapshotStore } from './snapshot-store.service';

const ID_PREFIX = 'tnt-';
const MISS_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * The JWKS path names a tenant by id or by slug (docs/identity.md: a verifier holding only a
 * token knows the tenant id from its kid). Unambiguous by rule: a segment starting with `tnt-` is
 * an id first (ids are made by the registry, so no slug can shadow one); only when no tenant has that
 * id is it taken as a slug (the registry's slug rule allows a `tnt-` slug). Answers the slug, so the
 * key set itself is served by the one JWKS implementation, SigningKeysService.jwksBySlug.
 */
export class TenantRefs {
  /** id → slug; a tenant's slug never changes, so hits are kept; misses briefly (null). */
  private readonly slugs = new Map<string, { slug: string | null; until: number }>();

  constructor(
    private readonly registry: RegistryInternalClient,
    private readonly snapshots: SnapshotStore,
  ) {}

  async slugOf(ref: string): Promise<string> {
    if (!ref.startsWith(ID_PREFIX)) return ref;
    const served = this.snapshots.current(ref);
    if (served) return served.tenantSlug;
    const now = Date.now();
    const hit = this.slugs.get(ref);
    if (hit && hit.until > now) return hit.slug ?? ref;
    let slug: string | null;
    try {
      slug = (await this.registry.state(ref))?.tenant_slug ?? null;
    } catch (err) {
      if (err instanceof RegistryUnavailableError) throw registryUnavailable();
      throw err;
    }
    if (this.slugs.size >= MAX_ENTRIES) this.slugs.delete(this.slugs.keys().next().value as string);
    this.slugs.set(ref, { slug, until: slug ? Number.POSITIVE_INFINITY : now + MISS_CACHE_MS });
    return slug ?? ref;
  }
}
