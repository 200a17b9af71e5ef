import type { NextFunction, Request, Response } from 'express';
import { badRequest } from '../domain/errors';

/** What the walk found: a U+0000 in a field (a key or a value), or nesting deeper than allowed. */
export interface BodyProblem {
  field: string;
  kind: 'nul_value' | 'nul_key' | 'too_deep';
}

/**
 * Containers (objects and arrays) a body or query may nest. JSON.parse accepts far deeper input,
 * but what stores it does not (Prisma's JSON serialiser recurses and overflows the stack at a few
 * thousand levels: a 500); no registry field needs more than a handful of levels.
 */
export const MAX_NESTING = 64;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** `a.b`, `a[2]` or `a["odd key"]`: the dotted path the 400 names (long keys are shortened). */
function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (PLAIN_KEY.test(key)) return `${path}.${key}`;
  return `${path}[${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)}]`;
}

/**
 * Walks a parsed JSON body or query with its own stack (no recursion, so no depth is too deep to
 * be walked) and answers the first U+0000 in a key or a value at any depth (docs/registry.md;
 * unless `checkNul` is false) or, when there is none, the first container nested deeper than
 * MAX_NESTING; null when clean.
 */
export function findBodyProblem(value: unknown, root: string, checkNul = true): BodyProblem | null {
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  let tooDeep: string | null = null;
  while (stack.length) {
    const [node, path, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (checkNul && node.includes('\u0000')) return { field: path, kind: 'nul_value' };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_NESTING) tooDeep ??= path;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], child(path, i), depth + 1]);
      continue;
    }
    const entries = Object.entries(node);
    if (checkNul && entries.some(([key]) => key.includes('\u0000'))) return { field: path, kind: 'nul_key' };
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], child(path, entries[i][0]), depth + 1]);
  }
  return tooDeep === null ? null : { field: tooDeep, kind: 'too_deep' };
}

/** The raw path as sent (before express decodes parameters): `%00` there is a NUL in a parameter. */
function pathHasNul(req: Request): boolean {
  const raw = req.originalUrl.split('?', 1)[0];
  return raw.includes('\u0000') || /%00/i.test(raw);
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a stored string with one would fail deep in
 * the database as a 500. Refuse it up front as a validation error (400, `{detail}` naming the
 * field: `path`, `query.<name>`, `body.<path>`; a path over 200 characters is shortened in the
 * middle) in the path, the query and the body; refuse as well a body or query nested deeper than
 * MAX_NESTING. Bodies of the paths matching `bodyExempt` (search and the compliance check, which
 * only read and drop the character themselves) are not checked for U+0000; their nesting, path
 * and query are.
 */
export function rejectNulCharacters(bodyExempt: RegExp) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const problem: BodyProblem | null = pathHasNul(req)
      ? { field: 'path', kind: 'nul_value' }
      : (findBodyProblem(req.query, 'query') ?? findBodyProblem(req.body, 'body', !bodyExempt.test(req.path)));
    if (!problem) return next();
    const field = problem.field.length > 200 ? `${problem.field.slice(0, 120)}…${problem.field.slice(-60)}` : problem.field;
    const NUL = 'the NUL character (U+0000), which cannot be stored';
    const detail =
      problem.kind === 'too_deep'
        ? `${field} nests objects or arrays deeper than ${MAX_NESTING} levels`
        : problem.kind === 'nul_key'
          ? `${field} has a key that contains ${NUL}`
          : `${field} contains ${NUL}`;
    next(badRequest(detail));
  };
}
