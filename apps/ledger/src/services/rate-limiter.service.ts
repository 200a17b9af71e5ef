import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { decide, take, type BucketPolicy, type BucketState, type RateDecision } from '../domain/token-bucket';

// One token bucket per API key, and one per client address for requests without a valid key,
// shared by every replica through Redis (docs/ledger-formats.md "Rate limits").
// Rate-limiting libraries' Redis limiters (rate-limiter-flexible's, for one) count fixed windows: at
// a window's edge the standard tier let 1,983 requests through in one second against the bucket's 116,
// for the same one round trip and 2-4 µs more Redis CPU per decision (docs/benchmarks.md "Hand-written
// pieces against their libraries", docs/development.md "Dependencies"). So the bucket is this small Lua
// script instead: atomic in Redis, timed by Redis's own clock (replicas' clocks do not matter), and the
// same arithmetic as domain/token-bucket.ts.
const TOKEN_BUCKET_LUA = `
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 60000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
end
if now > ts then
  tokens = math.min(capacity, tokens + (now - ts) * per_ms)
  ts = now
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'ts', ts)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_ms) + 60000)
return {allowed, string.format('%.17g', tokens)}
`;

type TokenBucketRedis = Redis & {
  ledgerTokenBucket(key: string, capacity: number, perMinute: number): Promise<[number, string]>;
};

export interface RateLimiterOptions {
  redis: Redis;
  logger: Logger;
  defaults: BucketPolicy;
  keyPrefix?: string;
  /** Most keys the in-process fallback remembers. */
  maxLocalKeys?: number;
  now?: () => number;
}

/**
 * When Redis cannot answer (down, or slower than the connection's command timeout), each replica
 * falls back to an in-process bucket per key (or address) with the same policy, and logs it (at most every 10 s).
 * Decision (docs/ledger-formats.md "Rate limits"): availability first, but not unlimited: during
 * the outage a key may reach its limit once per replica instead of once in total.
 */
export class RateLimiter {
  private readonly redis: TokenBucketRedis;
  private readonly local = new Map<string, BucketState>();
  private readonly prefix: string;
  private readonly now: () => number;
  private lastWarning = 0;

  constructor(private readonly opts: RateLimiterOptions) {
    opts.redis.defineCommand('ledgerTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
    this.redis = opts.redis as TokenBucketRedis;
    this.prefix = opts.keyPrefix ?? 'arbiter:ledger:rate:';
    this.now = opts.now ?? Date.now;
  }

  /** docs/ledger-formats.md "Limits": the standard tier, or the tenant's own (enterprise) limits. */
  policyFor(override: { requests_per_minute: number; burst: number } | null): BucketPolicy {
    return override ? { capacity: override.burst, perMinute: override.requests_per_minute } : this.opts.defaults;
  }

  /**
   * Takes a token from a bucket: an API key's id, or `addr:<client address>` for requests without a
   * valid key (http/rate-limit.ts).
   */
  async consume(bucket: string, policy: BucketPolicy): Promise<RateDecision> {
    try {
      const [allowed, tokens] = await this.redis.ledgerTokenBucket(this.prefix + bucket, policy.capacity, policy.perMinute);
      return decide(Number(tokens), allowed === 1, policy);
    } catch (err) {
      this.warn(err);
      return this.consumeLocally(bucket, policy);
    }
  }

  private consumeLocally(bucket: string, policy: BucketPolicy): RateDecision {
    const now = this.now();
    const { state, allowed } = take(this.local.get(bucket), now, policy);
    this.local.delete(bucket); // re-insert: the Map's order is then least recently used first
    this.local.set(bucket, state);
    if (this.local.size > (this.opts.maxLocalKeys ?? 100_000)) this.local.delete(this.local.keys().next().value as string);
    return decide(state.tokens, allowed, policy);
  }

  private warn(err: unknown): void {
    const now = this.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.opts.logger.warn({ err }, 'rate limit store unavailable: limiting per replica until Redis answers');
  }
}
