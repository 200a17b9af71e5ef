import { AppError, shownId } from '@arbiter/http';
import type { AuthErrors } from '@arbiter/auth';

/** docs/verdicts.md "Authentication": 401 missing_credentials / invalid_credentials, 403 principal_deactivated. */
export const verdictAuthErrors: AuthErrors = {
  missing: () => new AppError(401, 'missing_credentials', 'No credentials: send X-API-Key'),
  invalid: () => new AppError(401, 'invalid_credentials', 'Invalid, revoked or expired API key'),
  deactivated: () => principalDeactivated(),
  forbidden: (permission) => new AppError(403, 'insufficient_permission', `Missing permission: ${permission}`, { permission }),
  unavailable: () => new AppError(503, 'auth_unavailable', 'Credentials cannot be checked right now; retry'),
};

// The error codes of the verdict contract (docs/verdicts.md "Errors" lists them all).

export const principalDeactivated = () => new AppError(403, 'principal_deactivated', 'The caller principal is deactivated');

export const crossTenantForbidden = (what = 'This resource belongs to another tenant') => new AppError(403, 'cross_tenant_forbidden', what);

export const badRequest = (code: string, message: string, details?: unknown) => new AppError(400, code, message, details);

export const tenantNotFound = (slugOrId: string) => new AppError(404, 'tenant_not_found', `Tenant ${shownId(slugOrId)} not found`);

export const registryUnavailable = (message = 'The tenant policy cannot be loaded right now; retry') =>
  new AppError(503, 'registry_unavailable', message, undefined, { 'Retry-After': '1' });

export const policyUnavailable = (reason: string) =>
  new AppError(503, 'policy_unavailable', 'The tenant policy cannot be evaluated right now', { reason }, { 'Retry-After': '5' });

export const insufficientPermission = (permission: string) =>
  new AppError(403, 'insufficient_permission', `Missing permission: ${permission}`, { permission });

/**
 * docs/verdicts.md "Evaluation budget": the engine ran past EVALUATION_BUDGET_MS (one evaluation) or
 * SIMULATION_BUDGET_MS (a simulation's replays); nothing was decided, signed or recorded. Like every
 * 5xx, the body's details hold only the error id, so the message names the budget.
 */
export const evaluationBudgetExceeded = (budget: 'evaluation' | 'simulation', budgetMs: number, outcome = 'no verdict was given') =>
  new AppError(
    503,
    'evaluation_budget_exceeded',
    budget === 'simulation'
      ? `The simulation ran past its budget (simulation budget, ${budgetMs} ms of evaluation): nothing was answered. Replay fewer consultations (window.last, a shorter window)`
      : `The evaluation ran past its budget (evaluation budget, ${budgetMs} ms): ${outcome}. The tenant's rules cost too much for this request`,
  );
