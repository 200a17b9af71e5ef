import { decide, rateLimitHeaders, refill, take, type BucketPolicy } from './token-bucket';

const STANDARD: BucketPolicy = { capacity: 100, perMinute: 1000 };

describe(take.name, () => {
  it('starts full and allows a burst of exactly the capacity', () => {
    let state;
    let allowed = 0;
    for (let i = 0; i < 150; i++) {
      const r = take(state, 0, STANDARD);
      state = r.state;
      if (r.allowed) allowed++;
    }
    expect(allowed).toBe(100);
  });

  it('refills at the per-minute rate and never above the capacity', () => {
    expect(refill({ tokens: 0, updatedMs: 0 }, 60, STANDARD).tokens).toBeCloseTo(1);
    expect(refill({ tokens: 0, updatedMs: 0 }, 6_000, STANDARD).tokens).toBeCloseTo(100);
    expect(refill({ tokens: 50, updatedMs: 0 }, 3_600_000, STANDARD).tokens).toBe(100);
  });

  it('does not refill when the clock goes backwards', () => {
    expect(refill({ tokens: 3, updatedMs: 1000 }, 500, STANDARD)).toEqual({ tokens: 3, updatedMs: 1000 });
  });
});

describe(decide.name, () => {
  it('reports whole tokens left and how long until the bucket is full again', () => {
    const d = decide(42.5, true, STANDARD);
    expect(d.remaining).toBe(42);
    // 57.5 tokens missing at 1000 per minute (60 ms each).
    expect(d.resetAfterMs).toBe(3450);
    expect(rateLimitHeaders(d)).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '42',
      'X-RateLimit-Reset': '4',
      'X-RateLimit-Policy': '1000;w=60;burst=100',
    });
  });

  it('says 0 seconds to full for a full bucket', () => {
    expect(rateLimitHeaders(decide(100, true, STANDARD))['X-RateLimit-Reset']).toBe('0');
  });

  it('gives the wait for one token when refused', () => {
    const d = decide(0.25, false, { capacity: 3, perMinute: 1 });
    expect(d.retryAfterMs).toBe(45_000);
    expect(rateLimitHeaders(d)).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '165',
      'X-RateLimit-Policy': '1;w=60;burst=3',
      'Retry-After': '45',
    });
  });
});
