// The result of an offline verification: every check made, in order, with a message that says what
// was checked or what is wrong. `valid` is false as soon as one check failed; `info` lines never fail.
// An `unpinned` check says the signatures were checked only against keys the artifact itself carries
// (or the service being checked served): everything may be consistent and still forged, so such a
// report is not valid either; its status is `unpinned` (docs/evidence.md "Trusted keys").
export type CheckStatus = 'pass' | 'fail' | 'info' | 'unpinned';

/** `valid`: every check passed against trusted keys; `invalid`: a check failed; `unpinned`: none failed, but the keys were not the verifier's own. */
export type ReportStatus = 'valid' | 'invalid' | 'unpinned';

export interface CheckResult {
  /** Stable identifier of the check, e.g. `normative_hash`, `signature`, `chain`. */
  check: string;
  status: CheckStatus;
  message: string;
}

export interface VerificationReport {
  /** What was verified, e.g. `consultation cns-…`, `bundle bnd-…`. */
  subject: string;
  /** True only with status `valid`. */
  valid: boolean;
  status: ReportStatus;
  checks: CheckResult[];
}

export class ReportBuilder {
  readonly checks: CheckResult[] = [];

  constructor(readonly subject: string) {}

  pass(check: string, message: string): this {
    this.checks.push({ check, status: 'pass', message });
    return this;
  }

  fail(check: string, message: string): this {
    this.checks.push({ check, status: 'fail', message });
    return this;
  }

  info(check: string, message: string): this {
    this.checks.push({ check, status: 'info', message });
    return this;
  }

  /** The keys that verified were not the verifier's own: the report cannot be valid (see CheckStatus). */
  unpinned(check: string, message: string): this {
    this.checks.push({ check, status: 'unpinned', message });
    return this;
  }

  /** pass or fail on a condition, with the message of the outcome. */
  expect(check: string, ok: boolean, passMessage: string, failMessage: string): boolean {
    if (ok) this.pass(check, passMessage);
    else this.fail(check, failMessage);
    return ok;
  }

  /** Adds another report's checks under a prefix (an evidence pack holds a consultation). */
  include(prefix: string, report: VerificationReport): this {
    for (const c of report.checks) this.checks.push({ ...c, check: `${prefix}.${c.check}` });
    return this;
  }

  get failed(): boolean {
    return this.checks.some((c) => c.status === 'fail');
  }

  build(): VerificationReport {
    const status: ReportStatus =
      this.failed || this.checks.length === 0 ? 'invalid' : this.checks.some((c) => c.status === 'unpinned') ? 'unpinned' : 'valid';
    return { subject: this.subject, valid: status === 'valid', status, checks: this.checks };
  }
}

/** The failed checks' messages, one per line (for exceptions and terse output). */
export const failures = (report: VerificationReport): string[] =>
  report.checks.filter((c) => c.status === 'fail').map((c) => `${c.check}: ${c.message}`);
