// What a guarded tool call comes to (docs/agents.md). One vocabulary for every place Arbiter sits in an
// agent's tool path: the MCP proxy and the framework adapters map these outcomes onto their own
// results, so a call has the same fate whichever way it arrives.
import type { Explanation, LimitEntry, Requirement } from '../types';

/** The operation a tool call stands for, as the verdict gateway's check receives it. */
export interface GuardedCall {
  action: string;
  resource: string;
  scope: Record<string, string | number | boolean>;
  /** The tool's arguments: the rules' conditions read them by dot path. */
  parameters: Record<string, unknown>;
  /** Human principal the agent acts for (check's on_behalf_of). */
  onBehalfOf?: string;
}

/** Why a call is refused. */
export type RefusalReason =
  /** The dominating rule blocks the operation. */
  | 'blocked'
  /** The operation needed an approval and a decider rejected it. */
  | 'approval_rejected'
  /** The operation needed an approval and nobody decided in the time allowed. */
  | 'approval_timeout'
  /** The operation needed an approval and it expired before enough deciders approved it (docs/approvals.md). */
  | 'approval_expired'
  /** A verdict other than allowed and observe (a tenant-defined one): not an authorisation. */
  | 'unknown_verdict'
  /** The approval was granted, but the check after it was not allowed (consumed by another call, rules changed). */
  | 'approval_not_honoured';

export type GuardOutcome =
  /**
   * Run the tool: the verdict is allowed (or observe), signed. `limits`: the windows the call took its
   * share of (docs/verdicts.md "Budgets, rates and sequences"), when a rule with a window was consulted.
   */
  | { kind: 'allowed'; verdict: string; consultationId: string; signedVerdict: string; approvalId?: string; limits?: LimitEntry[] }
  /**
   * Do not run the tool. `statement` is the deciding rule's text when it could be read; `explanation`
   * what would make the operation allowed, when the verdict has one and it could be read; `limits` where
   * each window the answer read stood (a full budget shows `used_before` near `max`).
   */
  | {
      kind: 'blocked';
      verdict: string;
      consultationId: string;
      ruleId: string | null;
      statement: string | null;
      reason: RefusalReason;
      approvalId?: string;
      explanation?: Explanation;
      limits?: LimitEntry[];
    }
  /** Do not run the tool yet: an approval was requested and is pending. `explanation` and `limits` as for `blocked`. */
  | {
      kind: 'approval_pending';
      verdict: 'approval_required';
      consultationId: string;
      approvalId: string;
      candidateDeciders: string[];
      explanation?: Explanation;
      limits?: LimitEntry[];
    }
  /** Do not run the tool: the rules need fields the arguments do not hold. */
  | { kind: 'insufficient_context'; missing: Requirement[] }
  /** Do not run the tool: no verdict could be had (gateway or registry down, refused key, bad request). */
  | { kind: 'unavailable'; error: string; code?: string; status?: number };

/** True only for the outcome that lets a tool run. Everything else fails closed. */
export const mayRun = (o: GuardOutcome): o is Extract<GuardOutcome, { kind: 'allowed' }> => o.kind === 'allowed';

const REASON_TEXT: Record<RefusalReason, string> = {
  blocked: 'blocked by rule',
  approval_rejected: 'the approval was rejected',
  approval_timeout: 'the approval was not decided in time',
  approval_expired: 'the approval expired before it was decided',
  unknown_verdict: 'the verdict is not an authorisation',
  approval_not_honoured: 'the approval did not authorise this call',
};

const requirementText = (r: Requirement) => (r.reason && r.reason !== 'absent' ? `${r.field} (${r.reason})` : r.field);

/**
 * The one human-readable sentence for an outcome: what a tool result, an exception message or a log
 * line says. Names the rule and the consultation (or the approval) so a person can look it up.
 */
export function describeOutcome(o: GuardOutcome): string {
  switch (o.kind) {
    case 'allowed':
      return `Arbiter allowed the call (verdict ${o.verdict}, consultation ${o.consultationId}${o.approvalId ? `, approval ${o.approvalId}` : ''}).`;
    case 'blocked': {
      const rule = o.ruleId ? ` ${o.ruleId}${o.statement ? `: "${o.statement}"` : ''}` : '';
      const head =
        o.reason === 'blocked'
          ? `Arbiter refused the call: ${REASON_TEXT.blocked}${rule}`
          : `Arbiter refused the call: ${REASON_TEXT[o.reason]}${o.approvalId ? ` (approval ${o.approvalId})` : ''}${rule ? `; deciding rule${rule}` : ''}`;
      return `${head} (verdict ${o.verdict}, consultation ${o.consultationId}). The call was not forwarded.`;
    }
    case 'approval_pending': {
      const who = o.candidateDeciders.length ? ` by one of ${o.candidateDeciders.join(', ')}` : '';
      return `Arbiter needs an approval before this call: approval ${o.approvalId} is pending and may be decided${who} (consultation ${o.consultationId}). The call was not forwarded; retry it once the approval is approved.`;
    }
    case 'insufficient_context':
      return `Arbiter cannot decide the call: the rules need ${o.missing.map(requirementText).join('; ')}. The call was not forwarded; call again with these fields.`;
    case 'unavailable':
      return `Arbiter could not be reached or refused the request (${o.error}). The call was not forwarded.`;
  }
}
