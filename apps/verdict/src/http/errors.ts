import { AppError } from '@arbiter/http';
import type { AuthErrors } from '@arbiter/auth';

/** Document 1, Authentication: 401 missing_credentials / invalid_credentials, 403 principal_deactivated. */
export const verdictAuthErrors: AuthErrors = {
  missing: () => new AppError(401, 'missing_credentials', 'No credentials: send X-API-Key'),
  invalid: () => new AppError(401, 'invalid_credentials', 'Invalid, revoked or expired API key'),
  deactivated: () => new AppError(403, 'principal_deactivated', 'The caller principal is deactivated'),
  forbidden: (permission) => new AppError(403, 'insufficient_permission', `Missing permission: ${permission}`, { permission }),
  unavailable: () => new AppError(503, 'auth_unavailable', 'Credentials cannot be checked right now; retry'),
};
