import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { badRequest } from '../../domain/errors';

export const TENANT_ID = /^tnt-[0-9a-z_.-]{1,100}$/;

/**
 * The path's ids must look like ids before anything is read (400 invalid_request): each named parameter
 * against its pattern, the message saying what it is not.
 */
export function pathIdsChecked(ids: Record<string, { pattern: RegExp; what: string }>): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    for (const [name, { pattern, what }] of Object.entries(ids)) {
      if (!pattern.test(String(req.params[name] ?? ''))) throw badRequest('invalid_request', `${name} is not ${what}`);
    }
    next();
  };
}
