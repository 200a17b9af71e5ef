import type { NextFunction, Request, Response } from 'express';
import type { AppError } from '@arbiter/http';
import { secretsEqual } from './api-keys';
import { INTERNAL_TOKEN_HEADER } from '@arbiter/internal-api';

/**
 * The service tokens a service accepts on `/internal/v1`: INTERNAL_TOKEN and, during a rotation,
 * INTERNAL_TOKEN_PREVIOUS (accepted, never sent: callers always send INTERNAL_TOKEN). Unset and empty
 * values are dropped.
 */
export function acceptedInternalTokens(current: string, previous?: string): string[] {
  return [current, previous].filter((t): t is string => typeof t === 'string' && t.length > 0);
}

/**
 * Whether `given` is one of the accepted tokens. Every accepted token is compared (in constant time), whichever
 * matches, so the answer's timing tells nothing about which one, or how much of one, matched.
 */
export function isInternalToken(given: unknown, accepted: readonly string[]): boolean {
  if (typeof given !== 'string') return false;
  let match = false;
  for (const token of accepted) match = secretsEqual(given, token) || match;
  return match;
}

/**
 * Guards `/internal/v1`: only a caller holding a service token passes (acceptedInternalTokens); tenant
 * API keys never do (README.md "Architecture").
 */
export function internalTokenGuard(accepted: string | readonly string[], unauthorized: () => AppError) {
  const tokens = typeof accepted === 'string' ? [accepted] : [...accepted];
  if (tokens.length === 0) throw new TypeError('internalTokenGuard needs at least one token');
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!isInternalToken(req.headers[INTERNAL_TOKEN_HEADER], tokens)) return next(unauthorized());
    next();
  };
}
