import type { Express, NextFunction, Request, Response } from 'express';
import { AppError } from '@arbiter/http';

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

// Any NUL or any surrogate code unit: one scan that almost every string passes; only a hit pays for
// the exact test (a surrogate pair is well-formed).
const SUSPECT = /[\u0000\ud800-\udfff]/;

export function isUnstorable(s: string): boolean {
  return SUSPECT.test(s) && (s.includes('\u0000') || !s.isWellFormed());
}

/** Levels of objects and arrays a body may have (the body itself is level 1). */
export const MAX_BODY_DEPTH = 64;

export interface Unstorable {
  path: Array<string | number>;
  /** `string`: U+0000 or a lone surrogate; `depth`: nested deeper than MAX_BODY_DEPTH. */
  reason: 'string' | 'depth';
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `a.b[2]["x.y"]`: member names with dots, positions in brackets, other names JSON-quoted (so U+0000 reads `\u0000`). */
export function fieldPath(steps: ReadonlyArray<string | number>): string {
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (PLAIN_NAME.test(step)) out += out ? `.${step}` : step;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}

/**
 * The first key or string value that cannot be stored, or object nested deeper than `maxDepth`
 * levels (the root is level 1), or null.
 * Iterative, breadth first (a JSON body may nest deeper than the call stack goes); the path is built
 * only for a hit.
 */
export function findUnstorable(root: unknown, maxDepth = MAX_BODY_DEPTH): Unstorable | null {
  if (typeof root === 'string') return isUnstorable(root) ? { path: [], reason: 'string' } : null;
  if (root === null || typeof root !== 'object') return null;
  const nodes: object[] = [root];
  const parents: number[] = [-1];
  const steps: Array<string | number> = [''];
  const depths: number[] = [1];
  const pathTo = (node: number, last: string | number) => {
    const path = [last];
    for (let i = node; i > 0; i = parents[i]) path.push(steps[i]);
    return path.reverse();
  };
  const visit = (n: number, step: string | number, v: unknown): Unstorable | null => {
    if (typeof v === 'string') return isUnstorable(v) ? { path: pathTo(n, step), reason: 'string' } : null;
    if (v === null || typeof v !== 'object') return null;
    if (depths[n] >= maxDepth) return { path: pathTo(n, step), reason: 'depth' };
    nodes.push(v);
    parents.push(n);
    steps.push(step);
    depths.push(depths[n] + 1);
    return null;
  };
  for (let n = 0; n < nodes.length; n++) {
    const node = nodes[n];
    let hit: Unstorable | null = null;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && !hit; i++) hit = visit(n, i, node[i]);
    } else {
      for (const key of Object.keys(node)) {
        hit = isUnstorable(key) ? { path: pathTo(n, key), reason: 'string' } : visit(n, key, (node as Record<string, unknown>)[key]);
        if (hit) break;
      }
    }
    if (hit) return hit;
  }
  return null;
}

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
