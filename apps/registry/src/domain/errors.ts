import { AppError, shownId } from '@arbiter/http';
import type { AuthErrors } from '@arbiter/auth';

/** Registry errors (docs/registry.md "Errors"): `{detail}` bodies; the code is for logs and tests. */
export const registryAuthErrors: AuthErrors = {
  missing: () => new AppError(401, 'unauthorized', 'Missing API key: send Authorization: Bearer <key>'),
  invalid: () => new AppError(401, 'unauthorized', 'Invalid, revoked or expired API key'),
  deactivated: () => new AppError(403, 'principal_deactivated', 'The principal of this key is deactivated'),
  forbidden: (permission) => new AppError(403, 'forbidden', `Missing permission: ${permission}`),
  unavailable: () => new AppError(503, 'unavailable', 'Authentication is unavailable, try again'),
};

export const notFound = (what: string, id: string) => new AppError(404, 'not_found', `${what} ${shownId(id)} not found`);
export const badRequest = (message: string) => new AppError(400, 'bad_request', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const unprocessable = (message: string) => new AppError(422, 'unprocessable', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
