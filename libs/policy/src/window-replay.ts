// One operation decided against an in-memory window ledger, as the gateway decides it against its store
// (docs/verdicts.md "Budgets, rates and sequences"): the plan, the earlier operations, what each window
// holds, the evaluation with those states, and, when the answer lets the operation go ahead, its amount
// taken from every window whose rule did not fire on its limit and its marks left. The simulation and
// `arbiter rules test` replay operations through it, at the operations' own times. Pure but for the
// ledger it is given.
import type { Deadline } from './budget';
import type { CompiledPolicy } from './compile';
import { evaluate, leavesMarks, proceeds, windowPlan } from './evaluate';
import type { EvaluationRequest, EvaluationResult } from './types';
import type { WindowLedger } from './window-ledger';
import type { LimitEntry } from './window-rules';
import { limitEntries, needsThatFit, windowStates } from './window-states';

export interface LedgerDecision {
  result: EvaluationResult;
  /** The record's `limits`: each window the plan read, before and after this operation ([] when none). */
  limits: LimitEntry[];
}

/**
 * Decides `req` (evaluated at `now`, its windows at `atMs`) with the windows and marks `ledger` holds,
 * and records in the ledger what the answer consumes, under `consultationId` (for a later give-back).
 * One thread owns the ledger, so the gateway's first round (every window `fits`, then the conditional
 * take) and this single round with the real `used` answer alike.
 */
export function decideWithLedger(
  policy: CompiledPolicy,
  req: EvaluationRequest,
  now: Date,
  atMs: number,
  ledger: WindowLedger,
  consultationId: string,
  deadline: Deadline | null = null,
): LedgerDecision {
  const plan = windowPlan(policy, req, now, null, deadline);
  if (!plan.limits.length && !plan.priors.length && !plan.marks.length)
    return { result: evaluate(policy, req, now, null, deadline, windowStates(plan, [], [])), limits: [] };
  const used = ledger.peek(plan.limits, atMs);
  const result = evaluate(policy, req, now, null, deadline, windowStates(plan, used, ledger.priors(plan.priors, atMs)));
  if (result.status !== 'complete' || !proceeds(result)) return { result, limits: limitEntries(plan.limits, used, []) };
  const fit = needsThatFit(plan.limits, used);
  const took = ledger.take(consultationId, fit, leavesMarks(result) ? plan.marks : [], atMs);
  return { result, limits: limitEntries(plan.limits, used, took.taken ? fit : []) };
}
