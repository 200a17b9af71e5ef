import type { NextFunction, Request, Response } from 'express';
import { findUnstorable, stringProblem, type Unstorable } from '../domain/storable';
import { unstorableError } from '../domain/errors';

/**
 * U+0000 in the query string. A URL cannot carry the raw byte (node:http refuses it), and
 * percent-decoding never yields a lone surrogate (it fails instead), so `%00` is the only way in:
 * one scan of the URL, and a parse only on a hit. Names the parameter as the query has it.
 */
export function unstorableInQuery(url: string): Unstorable | null {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('%00', q)) return null;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    const inName = stringProblem(name);
    if (inName) return { field: name, reason: inName, inName: true };
    const inValue = stringProblem(value);
    if (inValue) return { field: name, reason: inValue, inName: false };
  }
  return null;
}

/** A decoded path parameter that cannot be stored, named as the route names it (`stream_id`). */
export function unstorableInParams(params: Record<string, string | string[]>): Unstorable | null {
  for (const [name, value] of Object.entries(params)) {
    for (const part of typeof value === 'string' ? [value] : value) {
      const reason = stringProblem(part);
      if (reason) return { field: name, reason, inName: false };
    }
  }
  return null;
}

/**
 * Every tsoa route (`@Middlewares(refuseUnstorable)` on each controller, so it runs after the
 * authentication hook, as on the seal lane, and before tsoa validates): 400 VALIDATION_ERROR naming
 * the first path parameter, query parameter or body string (key or value, any depth) PostgreSQL
 * cannot store. The seal lane checks the same things its own way (http/seal-route.ts, FactsService).
 */
export function refuseUnstorable(req: Request, _res: Response, next: NextFunction): void {
  const hit = unstorableInParams(req.params) ?? unstorableInQuery(req.originalUrl) ?? bodyProblem(req.body);
  next(hit ? unstorableError(hit) : undefined);
}

function bodyProblem(body: unknown): Unstorable | null {
  if (body === undefined || body === null || typeof body !== 'object') return null;
  const hit = findUnstorable(body, '');
  return hit && { ...hit, field: hit.field || 'body' };
}
