import type { NextFunction, Request, Response } from 'express';
import type { AppError } from '@arbiter/http';
import { secretsEqual } from './api-keys';
import { INTERNAL_TOKEN_HEADER } from '@arbiter/internal-api';

/**
 * Guards `/internal/v1`: only a caller holding the shared service token passes (compared in
 * constant time); tenant API keys never do (README.md "Architecture").
 */
export function internalTokenGuard(token: string, unauthorized: () => AppError) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = req.headers[INTERNAL_TOKEN_HEADER];
    if (typeof given !== 'string' || !secretsEqual(given, token)) return next(unauthorized());
    next();
  };
}
