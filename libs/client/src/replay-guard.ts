// Replay guards for enforcement points (docs/sdk.md "Enforcement points: requireVerdict"): a signed verdict is
// good for one operation, once. A guard remembers each verdict's `jti` (its consultation id) until the verdict's
// `exp`, after which the verdict is refused anyway, so nothing need be kept longer.

/** Remembers used verdicts until they expire. */
export interface ReplayGuard {
  /**
   * Records `key` as used until `expiresAtMs` (epoch ms). True the first time, false when it was recorded
   * before and has not expired (a replay). Throws when it cannot tell (the enforcement point then refuses).
   */
  firstUse(key: string, expiresAtMs: number): Promise<boolean>;
}

/** The guard's capacity is exhausted by unexpired verdicts: it refuses rather than forget one. */
export class ReplayGuardFullError extends Error {
  readonly code = 'replay_guard_full';
  constructor(max: number) {
    super(
      `the replay guard holds ${max} unexpired verdicts; it refuses new ones rather than forget one (raise maxEntries or use a shared store)`,
    );
    this.name = 'ReplayGuardFullError';
  }
}

/**
 * One process's memory. Enough for a single enforcement point; replicas behind a load balancer need a
 * shared store (redisReplayGuard), or a verdict refused by one replica is accepted by the next.
 */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: { maxEntries?: number; now?: () => number } = {}) {
    this.maxEntries = opts.maxEntries ?? 100_000;
    this.now = opts.now ?? Date.now;
  }

  /** Unexpired verdicts held. */
  get size(): number {
    return this.seen.size;
  }

  async firstUse(key: string, expiresAtMs: number): Promise<boolean> {
    const now = this.now();
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return false;
    if (this.seen.size >= this.maxEntries) this.prune(now);
    if (this.seen.size >= this.maxEntries) throw new ReplayGuardFullError(this.maxEntries);
    this.seen.set(key, expiresAtMs);
    return true;
  }

  private prune(now: number): void {
    for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
  }
}

/** The one Redis command the shared guard needs (ioredis and node-redis clients both fit). */
export interface RedisSetNx {
  set(key: string, value: string, mode: 'PX', milliseconds: number, condition: 'NX'): Promise<unknown>;
}

/**
 * A guard shared by every replica: `SET <prefix><key> 1 PX <ms until exp> NX`, atomic in Redis, so of two
 * replicas presented the same verdict at once exactly one lets it through.
 */
export function redisReplayGuard(redis: RedisSetNx, opts: { prefix?: string; now?: () => number } = {}): ReplayGuard {
  const prefix = opts.prefix ?? 'arbiter:verdict-jti:';
  const now = opts.now ?? Date.now;
  return {
    async firstUse(key, expiresAtMs) {
      const ms = Math.max(1, Math.ceil(expiresAtMs - now()));
      const answer = await redis.set(`${prefix}${key}`, '1', 'PX', ms, 'NX');
      return answer === 'OK';
    },
  };
}
