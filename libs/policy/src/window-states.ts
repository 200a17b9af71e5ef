// From what the window store answered to the states evaluate() reads and the record's `limits`
// (docs/verdicts.md "Budgets, rates and sequences"). Shared by the gateway, the simulation and
// `arbiter rules test`, so each builds the states the same way. Pure.
import { decimalOf, exceeds, plus, toNumber } from './decimal';
import type { TraceEntry } from './types';
import type { LimitEntry, LimitState, PriorNeed, PriorState, WindowNeed, WindowPlan, WindowStates } from './window-rules';

/**
 * The states of a plan's rules. `limits`: what each window held before (need order), `fits` (first
 * round: the conditional take decides) or `unavailable` (the store failed); `priors`: whether each earlier
 * operation was found (need order) or `unavailable`.
 */
export function windowStates(
  plan: WindowPlan,
  limits: readonly number[] | 'fits' | 'unavailable',
  priors: readonly boolean[] | 'unavailable',
): WindowStates {
  return {
    limits: new Map(
      plan.limits.map((n, i): [string, LimitState] => [n.rule_id, typeof limits === 'string' ? limits : { used: limits[i] }]),
    ),
    priors: priorStates(plan.priors, priors),
  };
}

function priorStates(needs: readonly PriorNeed[], found: readonly boolean[] | 'unavailable'): Map<string, PriorState> {
  return new Map(needs.map((n, i): [string, PriorState] => [n.rule_id, found === 'unavailable' ? 'unavailable' : found[i]]));
}

/**
 * The needs whose window has room for their amount, and the forced ones (a neutralised rule's window counts
 * whatever it holds): what a second take takes (a full window's rule fired).
 */
export function needsThatFit(needs: readonly WindowNeed[], usedBefore: readonly number[]): WindowNeed[] {
  return needs.filter((n, i) => n.forced === true || !exceeds(usedBefore[i], n.amount, n.max));
}

/**
 * The record's `limits`: one entry per need whose window was read, `used_after` = `used_before` + amount
 * for the needs in `taken`, else `used_before`. Members in RFC 8785 order.
 */
export function limitEntries(needs: readonly WindowNeed[], usedBefore: readonly number[], taken: readonly WindowNeed[]): LimitEntry[] {
  return needs.map((n, i) => ({
    key: n.key,
    max: n.max,
    rule_id: n.rule_id,
    used_after: taken.includes(n) ? toNumber(plus(decimalOf(usedBefore[i]), decimalOf(n.amount))) : usedBefore[i],
    used_before: usedBefore[i],
    window: n.window,
  }));
}

/**
 * The states an evaluation read, rebuilt from its record: each `limits` entry's used_before, and from the
 * trace each prior found or missing and each state that was unavailable. Evaluating (or explaining) the
 * recorded operation again with them gives the recorded answer.
 */
export function recordedStates(limits: readonly LimitEntry[] | null | undefined, trace: readonly TraceEntry[]): WindowStates {
  const l = new Map<string, LimitState>();
  const p = new Map<string, PriorState>();
  for (const e of limits ?? []) l.set(e.rule_id, { used: e.used_before });
  for (const t of trace) {
    if (t.limit_state === 'prior_found' || t.limit_state === 'prior_missing') p.set(t.rule_id, t.limit_state === 'prior_found');
    else if (t.limit_state === 'limit_unavailable') {
      // Unavailable even when the window was read (the gateway fails closed after takes that kept
      // finding it filled meanwhile, and records where it stood): the rule fired as unavailable.
      l.set(t.rule_id, 'unavailable');
      p.set(t.rule_id, 'unavailable');
    }
  }
  return { limits: l, priors: p };
}
