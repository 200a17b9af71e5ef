// Evaluation budgets (docs/verdicts.md "Evaluation budget", ADR 0015). The engine is synchronous: while
// it evaluates one tenant's request, the process serves nobody else. So every entry point takes a
// Deadline and reads the clock every few units of work (a candidate rule, an action glob, an
// explanation state); past it, it throws EvaluationBudgetExceededError, and the caller answers an
// error instead of a verdict (fail closed). Reading the clock costs tens of nanoseconds and happens
// once per BUDGET_CHECK_EVERY units and once at the end, so the hot path does not notice it.

/** Which budget a deadline enforces: one evaluation (check, resolve, explanation) or a whole simulation. */
export type BudgetKind = 'evaluation' | 'simulation';

export interface Deadline {
  /** performance.now() at which the work must stop. */
  readonly at: number;
  readonly budgetMs: number;
  readonly kind: BudgetKind;
}

/** Units of work (a unit costs at most tens of microseconds) between two readings of the clock. */
export const BUDGET_CHECK_EVERY = 64;

/** The evaluation (or simulation) ran past its deadline: no answer may be given from it. */
export class EvaluationBudgetExceededError extends Error {
  override readonly name = 'EvaluationBudgetExceededError';
  readonly code = 'evaluation_budget_exceeded';

  constructor(
    readonly budget: BudgetKind,
    readonly budgetMs: number,
  ) {
    super(`the ${budget} budget of ${budgetMs} ms is exceeded`);
  }
}

export const clockMs = (): number => performance.now();

/** A deadline `budgetMs` from `startMs` (default now). */
export function deadlineIn(budgetMs: number, kind: BudgetKind = 'evaluation', startMs: number = clockMs()): Deadline {
  return { at: startMs + budgetMs, budgetMs, kind };
}

/** The earlier of two deadlines (either may be absent). */
export function earlier(a: Deadline | null, b: Deadline | null): Deadline | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.at < a.at ? b : a;
}

/** Throws EvaluationBudgetExceededError when the deadline has passed; no deadline, no limit. */
export function checkDeadline(deadline: Deadline | null): void {
  if (deadline !== null && clockMs() >= deadline.at) throw new EvaluationBudgetExceededError(deadline.kind, deadline.budgetMs);
}

/**
 * Counts units of work against a deadline, reading the clock once per BUDGET_CHECK_EVERY units. One
 * per engine call (it is not shared between calls); `null` deadline: spend() only counts.
 */
export class BudgetMeter {
  private credit = BUDGET_CHECK_EVERY;
  constructor(readonly deadline: Deadline | null) {}

  spend(units: number): void {
    this.credit -= units;
    if (this.credit > 0) return;
    this.credit = BUDGET_CHECK_EVERY;
    checkDeadline(this.deadline);
  }

  /** Reads the clock now (at the end of a call: even a small evaluation never answers past its deadline). */
  check(): void {
    checkDeadline(this.deadline);
  }
}
