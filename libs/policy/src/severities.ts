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

/**
 * How strictly a verdict holds the operation back, 0 strictest: `blocked`; a tenant-defined verdict (Arbiter never
 * lets the operation go on it, and no approval lifts it); `approval_required`; `observe`; `allowed`.
 */
function strictness(verdict: string): number {
  switch (verdict) {
    case 'blocked':
      return 0;
    case 'approval_required':
      return 2;
    case 'observe':
      return 3;
    case 'allowed':
      return 4;
    default:
      return 1;
  }
}

/**
 * A rule's rank for the first two keys of the precedence order (docs/verdicts.md "Precedence"), lower first: its
 * severity, then, at equal severity, the stricter verdict. A rule's verdict can only be as strict as its severity's
 * or stricter (ruleVerdict), so a `MANDATORY` rule answering `approval_required` ranks below every `MANDATORY` rule
 * that blocks, whatever their scopes: a rule written for one scope cannot turn another rule's block into an approval.
 */
export function precedenceRank(severity: Severity, verdict: string): number {
  return SEVERITIES[severity].rank * 5 + strictness(verdict);
}

/** The verdict a rule answers when it dominates: its own, unless ruleVerdictProblem refuses it (then its severity's: fail closed). */
export function ruleVerdict(severity: Severity, verdict: string | null | undefined): string {
  const implied = SEVERITIES[severity].verdict;
  return verdict === null || verdict === undefined || ruleVerdictProblem(severity, verdict) !== null ? implied : verdict;
}
