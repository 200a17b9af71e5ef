import { AppError, ledgerDialect, shownId, type InputLocation } from '@arbiter/http';
import type { AuthErrors } from '@arbiter/auth';
import type { Unstorable } from '@arbiter/input';

// Errors (docs/ledger-formats.md "Errors"): {code, message, details?} with VALIDATION_ERROR 400, NOT_FOUND 404,
// UNAUTHORIZED 401, INTERNAL_ERROR 500; plus FORBIDDEN 403 (a valid key that may not act) and
// RATE_LIMITED 429 (docs/ledger-formats.md). The ledger dialect of @arbiter/http renders them.

/** docs/ledger-formats.md "Authentication": 401 UNAUTHORIZED; a valid key that may not act gets 403 FORBIDDEN. */
export const ledgerAuthErrors: AuthErrors = {
  missing: () => new AppError(401, 'UNAUTHORIZED', 'Missing API key: send X-API-Key'),
  invalid: () => new AppError(401, 'UNAUTHORIZED', 'Invalid, revoked or expired API key'),
  deactivated: () => new AppError(403, 'FORBIDDEN', 'The principal of this key is deactivated'),
  forbidden: (permission) => new AppError(403, 'FORBIDDEN', `Missing permission: ${permission}`, { permission }),
  unavailable: () => new AppError(503, 'SERVICE_UNAVAILABLE', 'Credentials cannot be checked right now; retry'),
};

export const validationError = (message: string, field?: string) =>
  new AppError(400, 'VALIDATION_ERROR', message, field ? { fields: [{ field, message }] } : undefined);

/** 400 for a value that cannot be stored exactly (docs/development.md "Storable JSON"), naming where it is. */
export const unstorableError = (u: Unstorable, location: InputLocation = 'body') => ledgerDialect.unstorable(u, location);

export const notFound = (what: string, id: string) => new AppError(404, 'NOT_FOUND', `${what} ${shownId(id)} not found`);

export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN', message);
