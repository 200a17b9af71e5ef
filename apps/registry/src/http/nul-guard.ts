import type { NextFunction, Request, Response } from 'express';
import { inspectJson, stringProblem } from '@arbiter/input';
import { registryDialect, unstorableInBody } from '@arbiter/http';

/** The raw path as sent (before express decodes parameters): `%00` there is a NUL in a parameter. */
function pathHasNul(req: Request): boolean {
  const raw = req.originalUrl.split('?', 1)[0];
  return raw.includes('\u0000') || /%00/i.test(raw);
}

const loneSurrogate = (s: string) => (stringProblem(s) === 'lone_surrogate' ? 'lone_surrogate' : null);

/**
 * The storable-JSON guard on the registry's routes (docs/registry.md "Limits"; the checks are
 * @arbiter/input's, docs/development.md "Storable JSON"): PostgreSQL text and jsonb cannot hold
 * U+0000, and a lone surrogate has no UTF-8 form (the driver would store U+FFFD), so either would
 * fail deep in the database as a 500 or be stored changed. Both are refused up front as a validation
 * error (400, `{detail}` naming the field: `path`, `query.<name>`, `body.<path>`; a path over 200
 * characters is shortened in the middle) in the path, the query and the body; a query nested deeper
 * than 64 levels too (the body's nesting, bytes and numbers are refused when it is read). The bodies
 * of the paths matching `nulExempt` (search and the compliance check, which only read, and drop the
 * character themselves) may hold U+0000, never a lone surrogate.
 */
export function rejectNulCharacters(nulExempt: RegExp) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (pathHasNul(req)) return next(registryDialect.unstorable({ path: [], reason: 'nul', inName: false }, 'path'));
    const query = inspectJson(req.query);
    const inQuery = query.string ?? query.depth;
    if (inQuery) return next(registryDialect.unstorable(inQuery, 'query'));
    let inBody = unstorableInBody(req.body);
    if (inBody?.reason === 'nul' && nulExempt.test(req.path)) inBody = inspectJson(req.body, Infinity, loneSurrogate).string;
    next(inBody ? registryDialect.unstorable(inBody, 'body') : undefined);
  };
}
