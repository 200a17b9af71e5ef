// Human output of verification reports: one line per check, the failures saying what is wrong.
import type { VerificationReport } from '@arbiter/client';

const MARK = { pass: '[ok]  ', fail: '[FAIL]', info: '[info]' } as const;

export function renderReport(report: VerificationReport): string {
  const width = Math.max(...report.checks.map((c) => c.check.length), 0);
  const lines = report.checks.map((c) => `  ${MARK[c.status]} ${c.check.padEnd(width)}  ${c.message}`);
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const verdict = report.valid ? 'VALID' : `INVALID (${failed} check${failed === 1 ? '' : 's'} failed)`;
  return [`${report.subject}: ${verdict}`, ...lines].join('\n');
}
