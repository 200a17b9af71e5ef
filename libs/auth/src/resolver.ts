import type { AuthenticatedIdentity } from './identity';

/**
 * Turns the hash of an API key into an identity, or null when the key is unknown, revoked or expired.
 * A resolver is a trust boundary: the identity it answers carries a minted TenantId.
 */
export interface KeyResolver {
  resolve(keyHash: string): Promise<AuthenticatedIdentity | null>;
}

export interface CacheOptions {
  /** Lifetime of a positive entry; at most 30 s (docs/identity.md). */
  ttlMs?: number;
  /** Lifetime of a negative entry (an unknown key), kept short so new keys work at once. */
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  identity: AuthenticatedIdentity | null;
  expires: number;
}

export const MAX_CACHE_TTL_MS = 30_000;

/**
 * A resolver with a bounded cache. Revocations arrive over Redis pub/sub and drop entries at once;
 * the TTL bounds staleness when a message is missed.
 */
export class CachedKeyResolver implements KeyResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthenticatedIdentity | null>>();
  private readonly ttl: number;
  private readonly negativeTtl: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(
    private readonly inner: KeyResolver,
    opts: CacheOptions = {},
  ) {
    this.ttl = Math.min(opts.ttlMs ?? MAX_CACHE_TTL_MS, MAX_CACHE_TTL_MS);
    this.negativeTtl = Math.min(opts.negativeTtlMs ?? 2_000, this.ttl);
    this.max = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  async resolve(keyHash: string): Promise<AuthenticatedIdentity | null> {
    const hit = this.entries.get(keyHash);
    if (hit && hit.expires > this.now()) {
      if (hit.identity?.expires_at && Date.parse(hit.identity.expires_at) <= this.now()) return null;
      return hit.identity;
    }
    let pending = this.inflight.get(keyHash);
    if (!pending) {
      pending = this.inner.resolve(keyHash).finally(() => this.inflight.delete(keyHash));
      this.inflight.set(keyHash, pending);
    }
    const identity = await pending;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { identity, expires: this.now() + (identity ? this.ttl : this.negativeTtl) });
    return identity;
  }

  invalidate(event: InvalidationEvent): void {
    if (event.type === 'all') {
      this.entries.clear();
      return;
    }
    if (event.type === 'key') {
      this.entries.delete(event.key_hash);
      return;
    }
    for (const [hash, entry] of this.entries) {
      const id = entry.identity;
      if (!id) continue;
      if (event.type === 'principal' && id.principal.id === event.principal_id) this.entries.delete(hash);
      if (event.type === 'tenant' && id.tenant_id === event.tenant_id) this.entries.delete(hash);
    }
  }
}

export type InvalidationEvent =
  { type: 'key'; key_hash: string } | { type: 'principal'; principal_id: string } | { type: 'tenant'; tenant_id: string } | { type: 'all' };

export const INVALIDATION_CHANNEL = 'arbiter:auth:invalidate';

export function parseInvalidation(message: string): InvalidationEvent | null {
  try {
    const e = JSON.parse(message) as InvalidationEvent;
    if (e && ['key', 'principal', 'tenant', 'all'].includes(e.type)) return e;
  } catch {
    /* ignore garbage on the channel */
  }
  return null;
}
