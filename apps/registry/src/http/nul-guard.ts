import type { NextFunction, Request, Response } from 'express';
import { badRequest } from './errors';

/** True when a string anywhere in the value holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a stored string with one would fail deep in
 * the database as a 500. Refuse it up front as a validation error (400) on the given paths;
 * search and the compliance check only read, and drop the character themselves instead.
 */
export function rejectNulCharacters(except: RegExp) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (except.test(req.path)) return next();
    if (containsNul(req.body) || containsNul(req.query) || req.path.includes('\u0000')) {
      return next(badRequest('Strings must not contain the NUL character (U+0000)'));
    }
    next();
  };
}
