// Human output of verification reports: one line per check, the failures saying what is wrong.
import type { VerificationReport } from '@arbiter/client';
import { EXIT } from './io';

const MARK = { pass: '[ok]  ', fail: '[FAIL]', info: '[info]', unpinned: '[PIN?]' } as const;

export function renderReport(report: VerificationReport): string {
  const width = Math.max(...report.checks.map((c) => c.check.length), 0);
  const lines = report.checks.map((c) => `  ${MARK[c.status]} ${c.check.padEnd(width)}  ${c.message}`);
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const verdict =
    report.status === 'valid'
      ? 'VALID'
      : report.status === 'unpinned'
        ? 'UNPINNED (no check failed, but only against keys you were handed, not keys you hold: give --trust <file>)'
        : `INVALID (${failed} check${failed === 1 ? '' : 's'} failed)`;
  return [`${report.subject}: ${verdict}`, ...lines].join('\n');
}

/** The exit code of a report: 0 valid, 1 a check failed, 3 unpinned (docs/cli.md). */
export const exitCodeOf = (report: VerificationReport): number =>
  report.status === 'valid' ? EXIT.ok : report.status === 'unpinned' ? EXIT.unpinned : EXIT.failed;
