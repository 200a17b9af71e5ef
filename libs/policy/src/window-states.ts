// From what the window store answered to the states evaluate() reads and the record's `limits`
// (docs/verdicts.md "Budgets, rates and sequences"). Shared by the gateway, the simulation and
// `arbiter rules test`, so each builds the states the same way. Pure.
import { decimalOf, exceeds, plus, toNumber } from './decimal';
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

/** The needs whose window has room for their amount: what a second take takes (a full window's rule fired). */
export function needsThatFit(needs: readonly WindowNeed[], usedBefore: readonly number[]): WindowNeed[] {
  return needs.filter((n, i) => !exceeds(usedBefore[i], n.amount, n.max));
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
