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

/** How many times a lookup is made again because the key, its principal or its tenant changed while it ran. */
export const MAX_LOOKUP_ATTEMPTS = 3;

/**
 * A resolver with a bounded cache. Revocations arrive over Redis pub/sub and drop entries at once;
 * the TTL bounds staleness when a message is missed. An invalidation that arrives while the key is being
 * looked up concerns an answer that may predate it: that answer is neither cached nor given, the lookup is made
 * again (a revocation is never undone by the lookup it overtook).
 */
export class CachedKeyResolver implements KeyResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthenticatedIdentity | null>>();
  /** The invalidations seen while each running lookup waits on the registry. */
  private readonly watches = new Set<InvalidationEvent[]>();
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
      pending = this.lookup(keyHash).finally(() => this.inflight.delete(keyHash));
      this.inflight.set(keyHash, pending);
    }
    return pending;
  }

  invalidate(event: InvalidationEvent): void {
    for (const watch of this.watches) watch.push(event);
    if (event.type === 'all') {
      this.entries.clear();
      return;
    }
    if (event.type === 'key') {
      this.entries.delete(event.key_hash);
      return;
    }
    for (const [hash, entry] of this.entries) {
      if (entry.identity && concerns(event, hash, entry.identity)) this.entries.delete(hash);
    }
  }

  private async lookup(keyHash: string): Promise<AuthenticatedIdentity | null> {
    for (let attempt = 1; ; attempt++) {
      const seen: InvalidationEvent[] = [];
      this.watches.add(seen);
      let identity: AuthenticatedIdentity | null;
      try {
        identity = await this.inner.resolve(keyHash);
      } finally {
        this.watches.delete(seen);
      }
      if (!seen.some((event) => concerns(event, keyHash, identity))) {
        if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(keyHash, { identity, expires: this.now() + (identity ? this.ttl : this.negativeTtl) });
        return identity;
      }
      // Fail closed: a key whose state keeps changing under its lookups is not let in on an answer that predates a change.
      if (attempt >= MAX_LOOKUP_ATTEMPTS) throw new Error(`API key lookup overtaken by ${MAX_LOOKUP_ATTEMPTS} invalidations in a row`);
    }
  }
}

/** Whether an invalidation concerns the key of this hash, answered as `identity`. */
function concerns(event: InvalidationEvent, keyHash: string, identity: AuthenticatedIdentity | null): boolean {
  switch (event.type) {
    case 'all':
      return true;
    case 'key':
      return event.key_hash === keyHash;
    case 'principal':
      return identity?.principal.id === event.principal_id;
    case 'tenant':
      return identity?.tenant_id === event.tenant_id;
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
