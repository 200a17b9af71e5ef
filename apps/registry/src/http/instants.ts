// The instants a registry body names. tsoa reads a `Date` member as any strict ISO 8601 text, so `2026-03-01T10:45:00`
// would be read in the server's time zone and `2026-03-01` as UTC midnight: an expiry whose instant depends on where
// the registry runs. An expiry names its instant (`Z` or an offset, docs/registry.md "Errors"), as OpenAPI's
// `date-time` already says; anything else is refused as tsoa's own validation failures are (400). A route middleware:
// tsoa's validation replaces the text by a `Date` in the body before the handler runs. tools/instants-guarded.spec.ts
// fails a route whose body has a `date-time` member its `@Instants` does not name.
import { isPlainObject, parseIsoInstant } from '@arbiter/input';
import { Middlewares, ValidateError } from '@tsoa/runtime';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A route middleware answering tsoa's 400 for each member of `names` (a dot path for a nested one) in the body that
 * is a string but no instant.
 */
function instantsChecked(...names: string[]): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const body: unknown = req.body;
    const fields: Record<string, { message: string; value: unknown }> = {};
    for (const name of names) {
      const value = name.split('.').reduce<unknown>((at, key) => (isPlainObject(at) ? at[key] : undefined), body);
      if (typeof value === 'string' && parseIsoInstant(value) === null) {
        fields[`body.${name}`] = { message: 'an ISO 8601 timestamp with Z or an offset, i.e. YYYY-MM-DDTHH:mm:ssZ', value };
      }
    }
    if (Object.keys(fields).length) throw new ValidateError(fields, '');
    next();
  };
}

/** A route's decorator: `instantsChecked` before tsoa's validation (`@Instants('expires_at')`). */
export function Instants(...names: string[]): MethodDecorator {
  return Middlewares(instantsChecked(...names));
}
