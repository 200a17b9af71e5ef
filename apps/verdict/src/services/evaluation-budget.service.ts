import type { Logger } from 'pino';
import type { ServiceMetrics } from '@arbiter/http';
import { deadlineIn, EvaluationBudgetExceededError, type Deadline } from '@arbiter/policy';
import { evaluationBudgetExceeded } from '../domain/errors';

/** Where a budget ran out: the operation answered 503 evaluation_budget_exceeded. */
export type BudgetedOperation = 'check' | 'resolve' | 'explanation' | 'simulation';

export interface EvaluationBudgetOptions {
  /** EVALUATION_BUDGET_MS: one evaluation (check, resolve, explanation, a replayed consultation). */
  evaluationMs: number;
  /** SIMULATION_BUDGET_MS: the engine time of one simulation, all its replays together. */
  simulationMs: number;
  metrics?: ServiceMetrics;
  logger?: Logger;
}

/** The defaults of the verdict's configuration (apps/verdict/src/config.ts). */
export const DEFAULT_BUDGETS = { evaluationMs: 50, simulationMs: 30_000 } as const;

/**
 * The gateway's side of the evaluation budgets (docs/verdicts.md "Evaluation budget"): deadlines for
 * the engine, and the engine's EvaluationBudgetExceededError turned into the 503 the contract names,
 * logged with the tenant and counted (arbiter_evaluation_budget_exceeded_total).
 */
export class EvaluationBudget {
  private readonly exceeded;

  constructor(private readonly opts: EvaluationBudgetOptions = { ...DEFAULT_BUDGETS }) {
    this.exceeded = opts.metrics?.counter<'operation' | 'budget'>('evaluation_budget_exceeded_total', {
      help: 'Requests refused because an evaluation or a simulation ran past its budget, by operation and budget',
      labelNames: ['operation', 'budget'],
    });
  }

  get evaluationMs(): number {
    return this.opts.evaluationMs;
  }

  get simulationMs(): number {
    return this.opts.simulationMs;
  }

  /** A deadline for one synchronous run of the engine, starting now. */
  start(): Deadline {
    return deadlineIn(this.opts.evaluationMs);
  }

  /**
   * Runs the engine; past its deadline the request fails closed with 503 evaluation_budget_exceeded
   * (no verdict is signed). Any other error passes through.
   */
  run<T>(operation: BudgetedOperation, tenantId: string, engine: () => T): T {
    try {
      return engine();
    } catch (err) {
      throw this.refusal(operation, tenantId, err);
    }
  }

  /** The error to throw for `err`: the 503 when it is the engine's budget error, else `err` itself. */
  refusal(operation: BudgetedOperation, tenantId: string, err: unknown): unknown {
    if (!(err instanceof EvaluationBudgetExceededError)) return err;
    this.exceeded?.inc({ operation, budget: err.budget });
    this.opts.logger?.warn(
      { tenant_id: tenantId, operation, budget: err.budget, budget_ms: err.budgetMs },
      'evaluation budget exceeded; answered 503',
    );
    return evaluationBudgetExceeded(err.budget, err.budgetMs, operation === 'explanation' ? 'no explanation was computed' : undefined);
  }
}
