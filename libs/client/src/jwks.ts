// A tenant's verdict key set fetched by URL (GET /v1/tenants/<slug>/jwks), cached for the max-age its
// Cache-Control gives (docs/verdicts.md "Limits": public, max-age=300, immutable; RFC 9111 section 5.2.2.1), and
// fetched again at once when a verdict names a kid the cached copy lacks (a rotation happened). So that
// forged kids cannot make a verifier hammer the service, a kid still missing after a fetch is not
// looked for again during a cooldown, and fetches are at least a minimum interval apart (a caller waits
// for that interval rather than being refused).
import { VerdictVerificationError } from './errors';
import type { KeySet, VerificationKey } from './types';
import { maxAgeOf } from './verdict-client';

export interface JwksSource {
  /** The key set; `refresh` asks for a fresh copy because `kid` is not in the cached one. */
  getKeySet(opts?: { refresh?: boolean; kid?: string }): Promise<KeySet>;
}

export interface RemoteJwksOptions {
  fetch?: typeof fetch;
  /** Clock in ms (tests). */
  now?: () => number;
  /** How long a kid still missing after a fetch is not looked for again. Default 30 s (as jose). */
  cooldownMs?: number;
  /** Minimum time between two fetches. Default 1 s. */
  minIntervalMs?: number;
  /** Cache lifetime when the answer has no max-age. Default 300 s. */
  defaultMaxAgeSeconds?: number;
}

const MAX_MISSING_KIDS = 1000;

/** Checks that a parsed document is a verdict key set: `{keys: [...]}` of EC P-256 entries with kid. */
export function assertKeySet(doc: unknown, source: string): KeySet {
  const keys = (doc as KeySet | undefined)?.keys;
  if (!Array.isArray(keys) || keys.some((k: VerificationKey) => !k || typeof k.kid !== 'string' || typeof k.x !== 'string')) {
    throw new VerdictVerificationError('jwks_unavailable', `${source} is not a key set ({"keys": [{"kid", "kty", "crv", "x", "y", …}]})`);
  }
  return doc as KeySet;
}

export class RemoteJwks implements JwksSource {
  private cached?: { keySet: KeySet; expiresAt: number };
  private lastFetchAt = Number.NEGATIVE_INFINITY;
  private readonly missing = new Map<string, number>();
  private inflight?: Promise<KeySet>;
  private readonly now: () => number;

  constructor(
    readonly url: string,
    private readonly opts: RemoteJwksOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  async getKeySet({ refresh = false, kid }: { refresh?: boolean; kid?: string } = {}): Promise<KeySet> {
    const c = this.cached;
    if (c && this.now() < c.expiresAt) {
      if (!refresh) return c.keySet;
      if (kid !== undefined) {
        if (c.keySet.keys.some((k) => k.kid === kid)) return c.keySet;
        const missedAt = this.missing.get(kid);
        if (missedAt !== undefined && this.now() - missedAt < (this.opts.cooldownMs ?? 30_000)) return c.keySet;
      }
    }
    this.inflight ??= this.throttledFetch().finally(() => (this.inflight = undefined));
    const keySet = await this.inflight;
    if (kid !== undefined && !keySet.keys.some((k) => k.kid === kid)) {
      if (this.missing.size >= MAX_MISSING_KIDS) this.missing.clear();
      this.missing.set(kid, this.now());
    }
    return keySet;
  }

  private async throttledFetch(): Promise<KeySet> {
    const wait = this.lastFetchAt + (this.opts.minIntervalMs ?? 1000) - this.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastFetchAt = this.now();
    return this.fetchKeySet();
  }

  private async fetchKeySet(): Promise<KeySet> {
    let res: Response;
    try {
      res = await (this.opts.fetch ?? globalThis.fetch)(this.url, { headers: { accept: 'application/json' } });
    } catch (err) {
      throw new VerdictVerificationError('jwks_unavailable', `key set ${this.url} could not be fetched: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!res.ok) throw new VerdictVerificationError('jwks_unavailable', `key set ${this.url} answered HTTP ${res.status}`);
    let doc: unknown;
    try {
      doc = await res.json();
    } catch (err) {
      throw new VerdictVerificationError('jwks_unavailable', `key set ${this.url} is not JSON`, { cause: err });
    }
    const keySet = assertKeySet(doc, this.url);
    const maxAge = maxAgeOf(res.headers.get('cache-control')) ?? this.opts.defaultMaxAgeSeconds ?? 300;
    this.cached = { keySet, expiresAt: this.now() + maxAge * 1000 };
    return keySet;
  }
}

/** A fixed key set (a saved file, an evidence pack): never refreshed. */
export class StaticJwks implements JwksSource {
  constructor(private readonly keySet: KeySet) {}
  async getKeySet(): Promise<KeySet> {
    return this.keySet;
  }
}

const shared = new Map<string, RemoteJwks>();
const sharedByFetch = new WeakMap<typeof fetch, Map<string, RemoteJwks>>();

/** One cache per URL (and per fetch implementation), shared by every verification in the process. */
export function remoteJwks(url: string, opts: RemoteJwksOptions = {}): RemoteJwks {
  let cache = shared;
  if (opts.fetch) {
    cache = sharedByFetch.get(opts.fetch) ?? new Map();
    sharedByFetch.set(opts.fetch, cache);
  }
  let source = cache.get(url);
  if (!source) {
    source = new RemoteJwks(url, opts);
    cache.set(url, source);
  }
  return source;
}
