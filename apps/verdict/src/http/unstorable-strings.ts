import type { Express, NextFunction, Request, Response } from 'express';
import { AppError } from '@arbiter/http';
import { fieldPath, findUnstorable, isUnstorable, MAX_BODY_DEPTH } from '../domain/storable';

/**
 * Strings PostgreSQL cannot store (docs/verdicts.md "Errors"): U+0000, which no PostgreSQL text or jsonb
 * value may hold, and lone surrogates, which have no UTF-8 form (the driver would silently store
 * U+FFFD instead of what was hashed and signed). Every route refuses them wherever they occur (a
 * body's keys and values at any depth, the query, the path parameters) with 400 validation_failed
 * naming the field, before anything is evaluated, batched or stored. A body nested deeper than
 * MAX_BODY_DEPTH is refused the same way: PostgreSQL's JSON parser, JSON.stringify and tsoa's
 * validation all recurse, and would fail on it with an error instead of an answer.
 */

export type Location = 'body' | 'query' | 'path';

export function unstorableString(location: Location, field: string): AppError {
  return new AppError(400, 'validation_failed', `${location} field ${field} holds U+0000 or a lone surrogate, which cannot be stored`, { field, in: location });
}

/** Throws for a body holding an unstorable key or value anywhere, or nested too deep. */
export function assertStorableBody(body: unknown): void {
  const found = findUnstorable(body);
  if (!found) return;
  const field = found.path.length ? fieldPath(found.path) : 'body';
  if (found.reason === 'string') throw unstorableString('body', field);
  throw new AppError(400, 'validation_failed', `body field ${field} is nested more than ${MAX_BODY_DEPTH} levels deep`, { field, in: 'body' });
}

/**
 * Throws for a query parameter (name or value) holding U+0000. Read from the raw URL so that the
 * fast lane and express name the same field; percent-decoding yields no lone surrogate (invalid
 * UTF-8 becomes U+FFFD), so `%00` is the only way in, and a URL without it costs one search.
 */
export function assertStorableQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('%00', q)) return;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (isUnstorable(name)) throw unstorableString('query', fieldPath([name]));
    if (isUnstorable(value)) throw unstorableString('query', name);
  }
}

/** Throws for a decoded path parameter holding an unstorable string. */
export function assertStorableParam(name: string, value: string): void {
  if (isUnstorable(value)) throw unstorableString('path', name);
}

/** A fast lane's whole request, in the order express checks it: the query, the body, the path parameters. */
export function assertStorableRequest(url: string, body: unknown, params: Record<string, string>): void {
  assertStorableQuery(url);
  assertStorableBody(body);
  for (const name in params) assertStorableParam(name, params[name]);
}

/** Express, before the routes: the query, then the parsed body. */
export function refuseUnstorableRequests(req: Request, _res: Response, next: NextFunction): void {
  assertStorableQuery(req.originalUrl);
  assertStorableBody(req.body);
  next();
}

/**
 * Express, after the routes are registered: every path parameter of every route (read from the
 * router, so a new route is covered without a list to keep) is checked once the route matches,
 * before its authentication and handler.
 */
export function refuseUnstorableParams(app: Express): void {
  const names = new Set<string>();
  for (const layer of (app.router as unknown as { stack: Array<{ route?: { path: unknown } }> }).stack) {
    const path = layer.route?.path;
    if (typeof path !== 'string') continue;
    for (const m of path.matchAll(/:([A-Za-z0-9_]+)/g)) names.add(m[1]);
  }
  for (const name of names) {
    app.param(name, (_req: Request, _res: Response, next: NextFunction, value: unknown) => {
      try {
        if (typeof value === 'string') assertStorableParam(name, value);
      } catch (err) {
        return next(err);
      }
      next();
    });
  }
}
