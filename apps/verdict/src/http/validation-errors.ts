import type { NextFunction, Request, Response } from 'express';
import { ValidateError } from '@tsoa/runtime';
import { AppError } from '@arbiter/http';
import { parseContext, parseResolveBody } from '../evaluation/request-parsing';

const RESOLVE_PATH = /^\/[^/]+\/v1\/resolve\/?$/;

/**
 * tsoa has checked the JSON shape and found it wrong: give the codes docs/verdicts.md "Errors" names where they
 * apply. A resolve body is re-read by the gateway's own parser, which names the exact problem
 * (invalid_context_shape, a field of the wrong variant, ...); a bad check scope value is
 * invalid_scope_value, a bad Fact invalid_context_shape, a bad list parameter invalid_query.
 */
export function translateValidationErrors(err: unknown, req: Request, _res: Response, next: NextFunction): void {
  if (!(err instanceof ValidateError)) return next(err);
  if (req.method === 'POST' && RESOLVE_PATH.test(req.path)) {
    try {
      parseResolveBody(req.body);
    } catch (precise) {
      return next(precise);
    }
    return next(err);
  }
  const fields = Object.keys(err.fields);
  const first = (prefix: string) => fields.find((f) => f === prefix || f.startsWith(`${prefix}.`));
  const scope = first('body.scope');
  if (scope && scope !== 'body.scope') {
    const field = scope.slice('body.scope.'.length);
    return next(new AppError(400, 'invalid_scope_value', `Scope field ${field} must be a string, number or boolean`, { field }));
  }
  const context = first('body.context');
  if (context) {
    // Field names are dot paths themselves, so the precise field comes from re-reading the map.
    try {
      parseContext((req.body as { context?: unknown } | undefined)?.context);
    } catch (precise) {
      return next(precise);
    }
    return next(new AppError(400, 'invalid_context_shape', `Invalid context: ${err.fields[context].message}`, { field: context.slice('body.'.length) }));
  }
  if (req.method === 'GET' && fields.length && fields.every((f) => !f.startsWith('body'))) {
    return next(new AppError(400, 'invalid_query', `Invalid query: ${fields.map((f) => `${f}: ${err.fields[f].message}`).join('; ')}`, { parameters: fields }));
  }
  next(err);
}
