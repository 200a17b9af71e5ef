import { AppError, ServiceMetrics } from '@arbiter/http';
import { EvaluationBudgetExceededError } from '@arbiter/policy';
import { EvaluationBudget } from './evaluation-budget.service';

describe(EvaluationBudget.name, () => {
  const setup = () => {
    const metrics = new ServiceMetrics('verdict');
    const warnings: unknown[] = [];
    const logger = { warn: (obj: unknown) => warnings.push(obj) } as never;
    return { metrics, warnings, sut: new EvaluationBudget({ evaluationMs: 50, simulationMs: 30_000, metrics, logger }) };
  };

  it('turns the engine budget error into 503 evaluation_budget_exceeded naming the budget, logs the tenant and counts it', async () => {
    const { sut, metrics, warnings } = setup();
    const attempt = () =>
      sut.run('check', 'tnt-1', () => {
        throw new EvaluationBudgetExceededError('evaluation', 50);
      });
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(
      expect.objectContaining({
        status: 503,
        code: 'evaluation_budget_exceeded',
        message: expect.stringContaining('evaluation budget, 50 ms'),
      }),
    );
    expect(warnings[0]).toEqual({ tenant_id: 'tnt-1', operation: 'check', budget: 'evaluation', budget_ms: 50 });
    expect(await metrics.registry.metrics()).toMatch(
      /arbiter_evaluation_budget_exceeded_total\{operation="check",budget="evaluation",service="verdict"\} 2/,
    );
    const simulation = sut.refusal('simulation', 'tnt-1', new EvaluationBudgetExceededError('simulation', 30_000));
    expect(simulation).toMatchObject({ status: 503, message: expect.stringContaining('simulation budget, 30000 ms of evaluation') });
  });

  it('lets every other error through untouched, and answers what the engine answers', () => {
    const { sut, warnings } = setup();
    const other = new Error('boom');
    expect(sut.refusal('resolve', 'tnt-1', other)).toBe(other);
    expect(sut.run('resolve', 'tnt-1', () => 42)).toBe(42);
    expect(warnings).toEqual([]);
  });

  it('gives deadlines of the configured budget from now', () => {
    const { sut } = setup();
    const before = performance.now();
    const d = sut.start();
    expect(d).toMatchObject({ budgetMs: 50, kind: 'evaluation' });
    expect(d.at).toBeGreaterThanOrEqual(before + 50);
  });
});
