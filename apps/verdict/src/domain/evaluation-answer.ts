// What check and resolve answer besides their body (docs/verdicts.md "check", "Limits"): pure helpers
// both services and both doors of the check route share.
import type { TenantSnapshot } from './tenant-snapshot';

/** A complete or incomplete answer: the body, and for a complete one the response headers' values. */
export interface Answer<T> {
  body: T;
  /** X-Verdict-TTL and X-Consultation-Id (complete answers only). */
  ttlSeconds?: number;
  consultationId?: string;
}

/** X-Verdict-TTL and X-Consultation-Id, on complete answers only. */
export function answerHeaders(answer: Answer<unknown>): Record<string, string> {
  return answer.consultationId ? { 'X-Verdict-TTL': String(answer.ttlSeconds), 'X-Consultation-Id': answer.consultationId } : {};
}

/**
 * The seconds a verdict may be acted on (docs/verdicts.md "Limits"): X-Verdict-TTL may shorten the
 * tenant's verdict_ttl_seconds, never lengthen it (a larger value is lowered to it; X-Verdict-TTL in
 * the answer says what applied). The tenant decides how long its verdicts live, not the caller.
 */
export function appliedTtl(requested: number | undefined, snapshot: Pick<TenantSnapshot, 'verdictTtlSeconds'>): number {
  return requested === undefined ? snapshot.verdictTtlSeconds : Math.min(requested, snapshot.verdictTtlSeconds);
}

/** The scope, parameters or context of a request that sends none: one frozen object, so `=== EMPTY` tells it apart. */
export const EMPTY: Record<string, never> = Object.freeze({}) as Record<string, never>;
