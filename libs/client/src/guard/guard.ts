// guardCall: the one procedure that turns a tool call into a decision (docs/agents.md). check first;
// approval_required → the approval is created and either returned or awaited (then the one-shot
// approval lets exactly this call through, once); a 422 insufficient_context → resolve with the
// arguments as Facts, to name what is still missing. Whatever goes wrong, the outcome never lets the
// tool run: only `allowed` does. An outcome that does not let it run carries the consultation's
// explanation (what would make it allowed), asked of the gateway only then: the check never asks for it.
import { ApprovalWaitError, ArbiterError } from '../errors';
import { waitForApproval, type PollBackoff } from '../approvals';
import type { Approval, CheckResponse, CompleteResolveResponse, Context, Explanation, LimitEntry, Requirement, WithLimits } from '../types';
import type { VerdictClient } from '../verdict-client';
import { decodeVerdictUnverified } from '../verify-verdict';
import { argumentFacts } from './argument-facts';
import type { GuardedCall, GuardOutcome, RefusalReason } from './outcome';
import { pendingApprovalsOf, type PendingApprovals } from './pending-approvals';

/** What guardCall needs of a verdict client (tests may pass a stub). */
export type GuardClient = Pick<
  VerdictClient,
  'check' | 'resolve' | 'createApproval' | 'getApproval' | 'getConsultation' | 'getConsultationExplanation' | 'getRuleVersion'
>;

export interface GuardProgress {
  approvalId: string;
  /** 1 for the first read of the approval. */
  attempt: number;
  elapsedMs: number;
  /** The approval's status as last read (pending, approved, rejected, expired). */
  status: string;
  /** How long the call may still wait, in ms. */
  remainingMs: number;
}

export interface GuardOptions {
  /** approval_required: `return` the pending approval (default) or `wait` for its decision. */
  onApproval?: 'return' | 'wait';
  /** How long `wait` waits for a decision; default 300 s. Then the call is refused (approval_timeout). */
  waitSeconds?: number;
  /** Pauses between reads of a pending approval (waitForApproval's backoff). Default 1 s growing to 10 s. */
  pollMs?: number | PollBackoff;
  /** Called after every read of the awaited approval (e.g. MCP progress notifications). */
  onProgress?: (progress: GuardProgress) => void;
  signal?: AbortSignal;
  /** requester_notes of the approval created; default names the action and resource. */
  requesterNotes?: string;
  /** Source of the Facts sent to resolve on insufficient_context; default `agent`. */
  factSource?: string;
  /** Where pending approvals are remembered across retries; default: one memory per client object. */
  pendingApprovals?: PendingApprovals;
  /** Clock and sleep, for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Verdicts that let the operation run. Anything else, a tenant-defined verdict included, refuses it. */
const RUNNABLE = new Set(['allowed', 'observe']);

/** Decides one tool call. Never throws for a service's refusal or failure: that is an `unavailable` outcome. */
export async function guardCall(client: GuardClient, call: GuardedCall, options: GuardOptions = {}): Promise<GuardOutcome> {
  try {
    const answer = await evaluate(client, call, options);
    if ('kind' in answer) return answer;
    return await decide(client, call, answer, options);
  } catch (err) {
    return unavailable(err);
  }
}

type Complete = WithLimits<CheckResponse | CompleteResolveResponse>;

/** The answer's `limits` as an outcome member: present only when the answer has some. */
const limitsOf = (answer: Complete): { limits?: LimitEntry[] } => (answer.limits?.length ? { limits: answer.limits } : {});

/** check; on insufficient_context, resolve with the arguments as Facts. */
async function evaluate(client: GuardClient, call: GuardedCall, options: GuardOptions): Promise<Complete | GuardOutcome> {
  const body = {
    action: call.action,
    resource: call.resource,
    scope: call.scope,
    parameters: call.parameters,
    ...(call.onBehalfOf ? { on_behalf_of: call.onBehalfOf } : {}),
  };
  try {
    return signedOrRefused(await client.check(body));
  } catch (err) {
    if (!(err instanceof ArbiterError) || err.code !== 'insufficient_context') throw err;
  }
  const context: Context = argumentFacts(call.parameters, options.factSource ?? 'agent');
  const resolved = await client.resolve({
    action: call.action,
    resource: call.resource,
    scope: call.scope,
    context,
    ...(call.onBehalfOf ? { on_behalf_of: call.onBehalfOf } : {}),
  });
  if (resolved.operation_status === 'complete') {
    const signed = signedOrRefused(resolved as unknown as Complete);
    if ('kind' in signed) return signed;
    const widened = scopeWidening(call.scope, signed.signed_verdict);
    return widened === null ? signed : { kind: 'unavailable', code: 'scope_widened', error: widened };
  }
  return { kind: 'insufficient_context', missing: (resolved as { required_context?: Requirement[] }).required_context ?? [] };
}

/**
 * A complete answer without its signed verdict or its consultation is no decision (docs/agents.md "Outcomes"): nothing
 * runs on it, whatever its `verdict` says (fail closed: `unsigned_answer`).
 */
function signedOrRefused(answer: Complete): Complete | GuardOutcome {
  const a = answer as Partial<Complete> | null;
  if (
    a &&
    typeof a.signed_verdict === 'string' &&
    a.signed_verdict !== '' &&
    typeof a.consultation_id === 'string' &&
    a.consultation_id !== ''
  )
    return answer;
  return {
    kind: 'unavailable',
    code: 'unsigned_answer',
    error: 'the gateway answered a verdict without its signed verdict or its consultation id: not a decision, nothing runs',
  };
}

/**
 * Why a resolved verdict does not hold for the call: resolve widens the scope with Facts named after scope fields
 * (docs/verdicts.md "The resolve loop"), and every argument is a Fact, so an argument `env` would choose a scope
 * field the call leaves unset (and the overrides and rules that come with it). The call's scope is the scope of every
 * decision (docs/agents.md "What the proxy stands against"): a verdict signed for any other, or whose scope cannot be
 * read, is refused (fail closed). Null when it holds.
 */
function scopeWidening(scope: GuardedCall['scope'], signedVerdict: string): string | null {
  const signed = decodeVerdictUnverified(signedVerdict)?.claims.scope;
  if (signed === null || typeof signed !== 'object' || Array.isArray(signed))
    return "the resolved verdict names no scope, so it cannot be held to the call's";
  const given = (scope ?? {}) as Record<string, unknown>;
  const widened = Object.entries(signed as Record<string, unknown>).filter(
    ([field, value]) => !Object.prototype.hasOwnProperty.call(given, field) || given[field] !== value,
  );
  if (widened.length === 0) return null;
  const named = widened.map(([field, value]) => `${field}=${JSON.stringify(value)}`).join(', ');
  return `the arguments named scope fields the call does not set (${named}), and resolve decided under that wider scope`;
}

/**
 * The one-shot approval a runnable verdict used: the signed verdict's `approval_id` claim (docs/verdicts.md "Hashes
 * and the signed verdict"). Read without verifying: it only labels the outcome; enforcement points verify the JWS.
 */
function approvalUsedBy(answer: Complete): string | undefined {
  const id = decodeVerdictUnverified(answer.signed_verdict)?.claims.approval_id;
  return typeof id === 'string' ? id : undefined;
}

async function decide(client: GuardClient, call: GuardedCall, answer: Complete, options: GuardOptions): Promise<GuardOutcome> {
  const memory = options.pendingApprovals ?? pendingApprovalsOf(client);
  if (RUNNABLE.has(answer.verdict)) {
    // A retry after the approval was approved (on_approval: return) is allowed by it, once: the outcome names it.
    const approvalId = approvalUsedBy(answer);
    if (approvalId) memory.forget(call);
    return {
      kind: 'allowed',
      verdict: answer.verdict,
      consultationId: answer.consultation_id,
      signedVerdict: answer.signed_verdict,
      ...(approvalId ? { approvalId } : {}),
      ...limitsOf(answer),
    };
  }
  if (answer.verdict !== 'approval_required') {
    return refusal(client, answer, answer.verdict === 'blocked' ? 'blocked' : 'unknown_verdict');
  }
  const returning = (options.onApproval ?? 'return') === 'return';
  // Asked while the approval is filed: a pending outcome carries it without a second wait.
  const explained = returning ? explanationOf(client, answer) : null;
  const approval = await fileApproval(client, call, answer, options, memory);
  if (approval.status === 'rejected') return refusal(client, answer, 'approval_rejected', approval.id);
  if (approval.status === 'expired') {
    // Refused now; the next call files a new approval (an expired one can no longer be decided).
    memory.forget(call);
    return refusal(client, answer, 'approval_expired', approval.id);
  }
  if (returning) {
    const explanation = await explained;
    return {
      kind: 'approval_pending',
      verdict: 'approval_required',
      consultationId: answer.consultation_id,
      approvalId: approval.id,
      candidateDeciders: approval.candidate_deciders,
      ...(explanation ? { explanation } : {}),
      ...limitsOf(answer),
    };
  }
  const decided = await awaitDecision(client, approval, options);
  if (decided === 'timeout') return refusal(client, answer, 'approval_timeout', approval.id);
  if (decided === 'expired') {
    memory.forget(call);
    return refusal(client, answer, 'approval_expired', approval.id);
  }
  if (decided.status !== 'approved') return refusal(client, answer, 'approval_rejected', approval.id);
  memory.forget(call);
  // The one-shot approval (docs/verdicts.md "Approvals"): the same caller's next check of the same
  // operation is allowed and consumes the approval. Anything else refuses the call.
  const again = await evaluate(client, call, options);
  if ('kind' in again) return again;
  if (RUNNABLE.has(again.verdict)) {
    return {
      kind: 'allowed',
      verdict: again.verdict,
      consultationId: again.consultation_id,
      signedVerdict: again.signed_verdict,
      approvalId: approval.id,
      ...limitsOf(again),
    };
  }
  return refusal(client, again, 'approval_not_honoured', approval.id);
}

/**
 * The approval for this operation: the one filed earlier while it is pending (or rejected: a rejection
 * stands for the retries), else a new one. An earlier approval that was approved and still did not
 * allow this check has been used or has lapsed: a new one is filed.
 */
/** Identical calls made while one is being filed share its filing (PendingApprovals.once). */
function fileApproval(
  client: GuardClient,
  call: GuardedCall,
  answer: Complete,
  options: GuardOptions,
  memory: PendingApprovals,
): Promise<Approval> {
  return memory.once(call, async () => {
    const earlier = memory.get(call);
    if (earlier) {
      const known = await client.getApproval(earlier).catch(() => null);
      if (known && known.status !== 'approved') return known;
      memory.forget(call);
    }
    const created = await client.createApproval({
      consultation_id: answer.consultation_id,
      requester_notes: options.requesterNotes ?? `Tool call ${call.action} on ${call.resource}, requested through Arbiter's guard`,
    });
    if (created.status !== 'approved') memory.remember(call, created.id);
    return created;
  });
}

async function awaitDecision(client: GuardClient, approval: Approval, options: GuardOptions): Promise<Approval | 'timeout' | 'expired'> {
  const now = options.now ?? Date.now;
  const started = now();
  const timeoutMs = (options.waitSeconds ?? 300) * 1000;
  try {
    return await waitForApproval(client, approval.id, {
      timeoutMs,
      pollMs: options.pollMs ?? { initialMs: 1000, maxMs: 10_000, factor: 1.5 },
      signal: options.signal,
      now: options.now,
      sleep: options.sleep,
      onPoll: (a, attempt) => {
        const elapsedMs = now() - started;
        options.onProgress?.({ approvalId: a.id, attempt, elapsedMs, status: a.status, remainingMs: Math.max(0, timeoutMs - elapsedMs) });
      },
    });
  } catch (err) {
    if (err instanceof ApprovalWaitError) return err.code === 'approval_expired' ? 'expired' : 'timeout';
    throw err;
  }
}

async function refusal(client: GuardClient, answer: Complete, reason: RefusalReason, approvalId?: string): Promise<GuardOutcome> {
  const ruleId = answer.dominating_rule_id ?? null;
  const [statement, explanation] = await Promise.all([
    ruleId ? statementOf(client, answer.consultation_id, ruleId) : null,
    explanationOf(client, answer),
  ]);
  return {
    kind: 'blocked',
    verdict: answer.verdict,
    consultationId: answer.consultation_id,
    ruleId,
    statement,
    reason,
    ...(approvalId ? { approvalId } : {}),
    ...(explanation ? { explanation } : {}),
    ...limitsOf(answer),
  };
}

/** Verdicts the gateway explains (docs/verdicts.md "Explanations"); any other has none to ask for. */
const EXPLAINED = new Set(['blocked', 'approval_required']);

/**
 * What would make the operation allowed, asked of the gateway for an answer that does not let the call
 * run (GET .../consultations/<id>/explanation; the check never asks for it). Undefined when the verdict
 * has none or it cannot be read: the refusal stands without it.
 */
async function explanationOf(client: GuardClient, answer: Complete): Promise<Explanation | undefined> {
  if (!EXPLAINED.has(answer.verdict)) return undefined;
  try {
    return (await client.getConsultationExplanation(answer.consultation_id)).explanation ?? undefined;
  } catch {
    return undefined;
  }
}

/** The deciding rule's text, read from the consultation's trace and the rule version; null when unreadable. */
async function statementOf(client: GuardClient, consultationId: string, ruleId: string): Promise<string | null> {
  try {
    const record = await client.getConsultation(consultationId);
    const entry =
      record.precedence_trace.find((e) => e.rule_id === ruleId && e.decided_by) ??
      record.precedence_trace.find((e) => e.rule_id === ruleId);
    if (!entry) return null;
    return (await client.getRuleVersion(entry.rule_version_id)).statement;
  } catch {
    return null;
  }
}

function unavailable(err: unknown): GuardOutcome {
  if (err instanceof ArbiterError) return { kind: 'unavailable', error: err.message, code: err.code, status: err.status };
  return { kind: 'unavailable', error: err instanceof Error ? err.message : String(err) };
}
