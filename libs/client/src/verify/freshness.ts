import type { ReportBuilder } from './report';

/** Adds a `timestamp` check: signed within `maxAgeSeconds` of `now`, either way (replay protection of webhook deliveries). */
export function expectFresh(report: ReportBuilder, signedAtMs: number, maxAgeSeconds: number, now: Date | number | undefined): boolean {
  const nowMs = now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
  const age = Math.round((nowMs - signedAtMs) / 1000);
  return report.expect(
    'timestamp',
    Math.abs(age) <= maxAgeSeconds,
    `signed ${age} s ago, within ${maxAgeSeconds} s`,
    `signed ${age} s ${age >= 0 ? 'ago' : 'in the future'}, beyond the allowed ${maxAgeSeconds} s: a replayed or delayed delivery`,
  );
}
