// Strings PostgreSQL cannot store, found in any JSON value (docs/verdicts.md "Strings that cannot be
// stored"): the pure walker the request guard (http/unstorable-strings.ts) and the body parsers
// (domain/request-parsing.ts) share. No I/O.

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
