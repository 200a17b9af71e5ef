// Verdict approvals from the requester's side: create the approval for a consultation whose verdict
// was approval_required, then poll it ("An approval decision is also readable by polling GET on the
// approval") with exponential backoff until it is decided or the time allowed runs out.
import { ApprovalWaitError } from './errors';
import { sleep } from './sleep';
import type { Approval, CreateApprovalBody } from './types';
import type { CallOptions, VerdictClient } from './verdict-client';

export interface PollBackoff {
  /** First pause between two reads. Default 1000 ms. */
  initialMs?: number;
  /** Longest pause. Default 30000 ms. */
  maxMs?: number;
  /** Growth of the pause after each pending read. Default 2. */
  factor?: number;
}

export interface WaitOptions extends CallOptions {
  /** Give up after this long (ApprovalWaitError approval_timeout); the approval stays pending. Default 15 min. */
  timeoutMs?: number;
  /** Pauses between reads: a number (fixed) or a backoff. */
  pollMs?: number | PollBackoff;
  signal?: AbortSignal;
  /** Called after every read, e.g. to tell a user the approval is still pending. */
  onPoll?: (approval: Approval, attempt: number) => void;
  /** Clock and sleep (tests). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type ApprovalsApi = Pick<VerdictClient, 'createApproval' | 'getApproval'>;

const defaultSleep = sleep;

export const isDecided = (a: Approval) => a.status !== 'pending';

/**
 * 'expired' is final too, but it is no decision: waiting ends with ApprovalWaitError approval_expired
 * (docs/approvals.md "Quorum, escalation and expiry").
 */
function refuseExpired(approval: Approval): Approval {
  if (approval.status === 'expired')
    throw new ApprovalWaitError(
      'approval_expired',
      `approval ${approval.id} expired at ${approval.expires_at} before it was decided; request a new one`,
      approval,
    );
  return approval;
}

/**
 * Polls an existing approval until it is approved or rejected; resolves with the decided approval. An
 * approval that expires ends the wait at once with ApprovalWaitError approval_expired.
 */
export async function waitForApproval(
  client: Pick<VerdictClient, 'getApproval'>,
  approvalId: string,
  opts: WaitOptions = {},
): Promise<Approval> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const deadline = now() + (opts.timeoutMs ?? 15 * 60_000);
  const backoff: Required<PollBackoff> =
    typeof opts.pollMs === 'number'
      ? { initialMs: opts.pollMs, maxMs: opts.pollMs, factor: 1 }
      : { initialMs: opts.pollMs?.initialMs ?? 1000, maxMs: opts.pollMs?.maxMs ?? 30_000, factor: opts.pollMs?.factor ?? 2 };
  let pause = backoff.initialMs;
  for (let attempt = 1; ; attempt++) {
    const approval = await client.getApproval(approvalId, opts);
    opts.onPoll?.(approval, attempt);
    if (isDecided(approval)) return refuseExpired(approval);
    const left = deadline - now();
    if (left <= 0)
      throw new ApprovalWaitError(
        'approval_timeout',
        `approval ${approvalId} is still pending after ${opts.timeoutMs ?? 900_000} ms`,
        approval,
      );
    try {
      await sleep(Math.min(pause, left), opts.signal);
    } catch {
      throw new ApprovalWaitError('aborted', `waiting for approval ${approvalId} was aborted`, approval);
    }
    pause = Math.min(backoff.maxMs, pause * backoff.factor);
  }
}

/**
 * Creates the approval of a consultation (POST /<tenant>/v1/approvals) and waits for its decision.
 * Resolves with the decided approval (check `status`: approved or rejected); after an approval, call
 * check again on the operation (docs/verdicts.md "States and transitions"). An expired approval throws
 * ApprovalWaitError approval_expired.
 */
export async function requestApprovalAndWait(client: ApprovalsApi, body: CreateApprovalBody, opts: WaitOptions = {}): Promise<Approval> {
  const created = await client.createApproval(body, opts);
  if (isDecided(created)) return refuseExpired(created);
  return waitForApproval(client, created.id, opts);
}
