import type { NextFunction, Request, Response } from 'express';
import { unstorableInBody, unstorableInParams, unstorableInQuery } from '@arbiter/http';
import { unstorableError } from '../domain/errors';

/**
 * Every tsoa route (`@Middlewares(refuseUnstorable)` on each controller, so it runs after the
 * authentication hook, as on the seal lane, and before tsoa validates): 400 VALIDATION_ERROR naming
 * the first path parameter, query parameter or body string (key or value, any depth) PostgreSQL
 * cannot store (docs/ledger-formats.md "Limits and validation"; the checks are the storable-JSON
 * guard's, docs/development.md "Storable JSON"). The seal lane checks the same things its own way
 * (http/seal-route.ts, FactsService).
 */
export function refuseUnstorable(req: Request, _res: Response, next: NextFunction): void {
  const inPath = unstorableInParams(req.params);
  if (inPath) return next(unstorableError(inPath, 'path'));
  const inQuery = unstorableInQuery(req.originalUrl);
  if (inQuery) return next(unstorableError(inQuery, 'query'));
  const inBody = unstorableInBody(req.body);
  next(inBody ? unstorableError(inBody, 'body') : undefined);
}
