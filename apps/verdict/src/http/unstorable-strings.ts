import type { Express, NextFunction, Request, Response } from 'express';
import { stringProblem } from '@arbiter/input';
import { unstorableInBody, unstorableInQuery, verdictDialect } from '@arbiter/http';

/**
 * The storable-JSON guard on the verdict gateway's routes (docs/verdicts.md "Strings that cannot be
 * stored"; the checks are @arbiter/input's, docs/development.md "Storable JSON"): U+0000 and lone
 * surrogates wherever they occur (a body's keys and values at any depth, the query, the path
 * parameters) are refused with 400 validation_failed naming the field, before anything is evaluated,
 * batched or stored. What the body reader refuses on its own (bytes that are not UTF-8, inexact
 * numbers, nesting past 64 levels) comes before this, with the same code.
 */

/** Throws for a body holding an unstorable key or value anywhere. */
export function assertStorableBody(body: unknown): void {
  const found = unstorableInBody(body);
  if (found) throw verdictDialect.unstorable(found, 'body');
}

/** Throws for a query parameter (name or value) holding U+0000. */
export function assertStorableQuery(url: string): void {
  const found = unstorableInQuery(url);
  if (found) throw verdictDialect.unstorable(found, 'query');
}

/** Throws for a decoded path parameter holding an unstorable string. */
export function assertStorableParam(name: string, value: string): void {
  const reason = stringProblem(value);
  if (reason) throw verdictDialect.unstorable({ path: [name], reason, inName: false }, 'path');
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
