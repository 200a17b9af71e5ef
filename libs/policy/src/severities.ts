// The four severities and the verdict each implies (docs/verdicts.md "Precedence"), and what a rule's own verdict
// string may say beside its severity.
import type { Severity, TraceSeverity } from './types';

/** Severity rank (0 strongest), trace label and implied verdict (docs/verdicts.md). */
export const SEVERITIES: Readonly<Record<Severity, { rank: number; trace: TraceSeverity; verdict: string }>> = {
  MANDATORY: { rank: 0, trace: 'block', verdict: 'blocked' },
  REQUIRES_APPROVAL: { rank: 1, trace: 'approval', verdict: 'approval_required' },
  ADVISORY: { rank: 2, trace: 'observe', verdict: 'observe' },
  ALLOW: { rank: 3, trace: 'allow', verdict: 'allowed' },
};

/** The verdicts that let the operation go ahead (docs/verdicts.md "Windows and outcomes"). */
const GO_AHEAD = new Set(['allowed', 'observe']);

/**
 * Why a rule's `verdict` cannot stand beside its severity, or null. A rule ranks by its severity, so a `MANDATORY`
 * rule answering `allowed` would outrank every other blocking rule and then let the operation go, with no one's
 * approval: a `MANDATORY` or `REQUIRES_APPROVAL` rule cannot answer `allowed` or `observe`. Other strings stand
 * (`approval_required` on a `MANDATORY` rule routes to its deciders; tenant-defined ones never let an operation go).
 */
export function ruleVerdictProblem(severity: Severity, verdict: string | null | undefined): string | null {
  if (verdict === null || verdict === undefined) return null;
  const sev = SEVERITIES[severity];
  if (!sev || GO_AHEAD.has(sev.verdict) || !GO_AHEAD.has(verdict)) return null;
  return `a ${severity} rule cannot answer ${verdict}: it would outrank other rules as ${sev.verdict} and let the operation go`;
}

/** The verdict a rule answers when it dominates: its own, unless ruleVerdictProblem refuses it (then its severity's: fail closed). */
export function ruleVerdict(severity: Severity, verdict: string | null | undefined): string {
  const implied = SEVERITIES[severity].verdict;
  return verdict === null || verdict === undefined || ruleVerdictProblem(severity, verdict) !== null ? implied : verdict;
}
