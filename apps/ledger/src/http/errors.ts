import { AppError } from '@arbiter/http';
import type { AuthErrors } from '@arbiter/auth';

/** Document 3: 401 UNAUTHORIZED; a valid key that may not act gets 403 FORBIDDEN. */
export const ledgerAuthErrors: AuthErrors = {
  missing: () => new AppError(401, 'UNAUTHORIZED', 'Missing API key: send X-API-Key'),
  invalid: () => new AppError(401, 'UNAUTHORIZED', 'Invalid, revoked or expired API key'),
  deactivated: () => new AppError(403, 'FORBIDDEN', 'The principal of this key is deactivated'),
  forbidden: (permission) => new AppError(403, 'FORBIDDEN', `Missing permission: ${permission}`, { permission }),
  unavailable: () => new AppError(503, 'SERVICE_UNAVAILABLE', 'Credentials cannot be checked right now; retry'),
};
