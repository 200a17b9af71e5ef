/**
 * The webhook retry schedule (docs/approvals.md: exponential backoff, at least 8 attempts over
 * hours). After failed attempt n (n = 1, 2, ...) the next one waits base * 2^(n-1), capped.
 * Deterministic on purpose: docs/webhooks.md prints the schedule a receiver can plan for.
 * With the defaults (8 attempts, base 2 min) the waits are 2, 4, 8, 16, 32, 64, 128 min:
 * the last attempt comes about 4 h 14 min after the first.
 */
export function retryDelayMs(failedAttempt: number, baseMs: number, maxDelayMs: number): number {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) throw new RangeError('failedAttempt must be an integer of at least 1');
  // 2^40 * base overflows nothing that matters once capped; stop doubling well before that.
  const factor = 2 ** Math.min(failedAttempt - 1, 40);
  return Math.min(baseMs * factor, maxDelayMs);
}

/** The waits between consecutive attempts of one delivery (maxAttempts - 1 of them). */
export function retrySchedule(maxAttempts: number, baseMs: number, maxDelayMs: number): number[] {
  return Array.from({ length: Math.max(0, maxAttempts - 1) }, (_, i) => retryDelayMs(i + 1, baseMs, maxDelayMs));
}
