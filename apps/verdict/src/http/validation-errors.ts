import type { NextFunction, Request, Response } from 'express';
import { ValidateError } from '@tsoa/runtime';
import { AppError } from '@arbiter/http';

/**
 * tsoa has checked a request's parameters and found them wrong: a bad list parameter is
 * invalid_query (docs/verdicts.md). Check and resolve bodies never get here: their handlers
 * (the controllers' ownBody handlers and check-lane.ts) parse them without tsoa's validation.
 */
export function translateValidationErrors(err: unknown, req: Request, _res: Response, next: NextFunction): void {
  if (!(err instanceof ValidateError)) return next(err);
  const fields = Object.keys(err.fields);
  if (req.method === 'GET' && fields.length && fields.every((f) => !f.startsWith('body'))) {
    return next(
      new AppError(400, 'invalid_query', `Invalid query: ${fields.map((f) => `${f}: ${err.fields[f].message}`).join('; ')}`, {
        parameters: fields,
      }),
    );
  }
  next(err);
}
