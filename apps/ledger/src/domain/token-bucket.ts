// Token bucket (docs/ledger-formats.md "Limits"): a bucket of `capacity` tokens (the
// burst) refilled continuously at `perMinute` tokens per minute; a request takes one token or is
// refused. Pure arithmetic shared by the Redis script (services/rate-limiter.service.ts, which repeats it
// in Lua) and the in-process fallback; token-bucket.spec.ts and rate-limit tests pin both. Why not a
// library's limiter: docs/benchmarks.md "Hand-written pieces against their libraries".

export interface BucketPolicy {
  /** Burst: tokens a full bucket holds. */
  capacity: number;
  /** Refill rate, tokens per minute. */
  perMinute: number;
}

export interface BucketState {
  tokens: number;
  updatedMs: number;
}

/** What one request got, and what the X-RateLimit-* / Retry-After headers say about it. */
export interface RateDecision {
  allowed: boolean;
  policy: BucketPolicy;
  /** Whole tokens left: requests that may be made right now. */
  remaining: number;
  /** ms until the bucket is full again (0 when it is full). */
  resetAfterMs: number;
  /** When refused: ms until one token is back. */
  retryAfterMs: number;
}

export function refill(state: BucketState | undefined, nowMs: number, policy: BucketPolicy): BucketState {
  if (!state) return { tokens: policy.capacity, updatedMs: nowMs };
  const elapsed = Math.max(0, nowMs - state.updatedMs);
  const tokens = Math.min(policy.capacity, state.tokens + (elapsed * policy.perMinute) / 60_000);
  return { tokens, updatedMs: Math.max(nowMs, state.updatedMs) };
}

/** Refills, then takes one token when there is a whole one. */
export function take(state: BucketState | undefined, nowMs: number, policy: BucketPolicy): { state: BucketState; allowed: boolean } {
  const filled = refill(state, nowMs, policy);
  if (filled.tokens >= 1) return { state: { ...filled, tokens: filled.tokens - 1 }, allowed: true };
  return { state: filled, allowed: false };
}

export function decide(tokens: number, allowed: boolean, policy: BucketPolicy): RateDecision {
  const perMs = policy.perMinute / 60_000;
  return {
    allowed,
    policy,
    remaining: Math.max(0, Math.floor(tokens)),
    resetAfterMs: Math.ceil(Math.max(0, policy.capacity - tokens) / perMs),
    retryAfterMs: allowed ? 0 : Math.ceil(Math.max(0, 1 - tokens) / perMs),
  };
}

/**
 * The response headers of a decision (docs/ledger-formats.md "Rate limits"):
 * Limit = the tier's requests per minute, Remaining = whole tokens left, Reset = whole seconds until
 * the bucket is full (a delta, as Retry-After, so clients need no clock); the burst is in Policy.
 */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(d.policy.perMinute),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(Math.ceil(d.resetAfterMs / 1000)),
    'X-RateLimit-Policy': `${d.policy.perMinute};w=60;burst=${d.policy.capacity}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(d.retryAfterMs / 1000)));
  return headers;
}
