// The context paths a CEL expression reads, from its syntax tree. A path is an identifier followed
// by field selections with constant names (`transfer.amount`); an index (`items[0]`), a call on a
// value (`name.startsWith("x")`) or `has(a.b)` reads the path of the value it applies to (`items`,
// `name`, `a`). Variables bound by a comprehension macro (`items.all(i, i.price < 100)`) are not
// context names. An unknown construct only makes its identifiers count as paths: a name read that
// this walk did not expect is treated as one more name the context must supply (fail closed).
import type { ASTNode } from '@marcbachmann/cel-js';

/** Macros whose first argument names a variable bound in the others (CEL spec, "Macros"). */
const BINDING_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'transformList', 'transformMap']);

/** The dot path a node selects, or null when it is not a plain path. */
function pathOf(node: ASTNode, bound: ReadonlySet<string>): string | null {
  if (node.op === 'id') return bound.has(node.args) ? null : node.args;
  if (node.op === '.') {
    const base = pathOf(node.args[0], bound);
    return base === null ? null : `${base}.${node.args[1]}`;
  }
  return null;
}

function isNode(x: unknown): x is ASTNode {
  return x !== null && typeof x === 'object' && typeof (x as { op?: unknown }).op === 'string' && 'args' in (x as object);
}

function walk(node: ASTNode, bound: ReadonlySet<string>, out: string[]): void {
  const path = pathOf(node, bound);
  if (path !== null) {
    out.push(path);
    return;
  }
  switch (node.op) {
    case 'value':
      return;
    case 'id':
      return; // a bound variable
    case '.':
    case '.?':
      walk(node.args[0], bound, out);
      return;
    case 'call': {
      const [name, args] = node.args;
      if (name === 'has' && args.length === 1 && args[0].op === '.') {
        // has(a.b) tests whether `a` has a field `b`: it reads `a`, and needs no `a.b`.
        walk(args[0].args[0], bound, out);
        return;
      }
      for (const a of args) walk(a, bound, out);
      return;
    }
    case 'rcall': {
      const [name, receiver, args] = node.args;
      walk(receiver, bound, out);
      if (BINDING_MACROS.has(name) && args.length >= 2 && args[0].op === 'id') {
        const inner = new Set(bound);
        inner.add(args[0].args);
        // transformMap(k, v, expr) and the two-variable forms bind a second name.
        let rest = args.slice(1);
        if (rest.length >= 2 && rest[0].op === 'id') {
          inner.add(rest[0].args);
          rest = rest.slice(1);
        }
        for (const a of rest) walk(a, inner, out);
        return;
      }
      for (const a of args) walk(a, bound, out);
      return;
    }
    default: {
      // Operators, lists, maps, ternaries: every node below is an operand.
      const args: unknown = node.args;
      const items = Array.isArray(args) ? args : [args];
      for (const item of items) {
        if (isNode(item)) walk(item, bound, out);
        else if (Array.isArray(item)) for (const x of item) if (isNode(x)) walk(x, bound, out); // map entries
      }
    }
  }
}

/** Names of the functions and methods an expression calls (`size`, `startsWith`, ...), each once. */
export function calledFunctions(ast: ASTNode): Set<string> {
  const out = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    if (!isNode(node)) return;
    if ((node.op === 'call' || node.op === 'rcall') && typeof node.args[0] === 'string') out.add(node.args[0]);
    visit(node.args);
  };
  visit(ast);
  return out;
}

/**
 * How deeply comprehension macros (`all`, `exists`, `map`, ...) nest inside one another's arguments:
 * 0 without any, 1 for `items.all(i, i > 0)` or a chain `items.map(i, i).all(p, p > 0)`, 2 for
 * `items.all(i, items.exists(j, i == j))`. Each level multiplies the work by the size of a list.
 */
export function comprehensionNesting(ast: ASTNode): number {
  const depth = (node: unknown): number => {
    if (Array.isArray(node)) return node.reduce((max: number, x) => Math.max(max, depth(x)), 0);
    if (!isNode(node)) return 0;
    if (node.op === 'rcall' && BINDING_MACROS.has(node.args[0])) {
      const [, receiver, args] = node.args;
      return Math.max(depth(receiver), 1 + depth(args));
    }
    return depth(node.args);
  };
  return depth(ast);
}

/** Distinct paths in order of first appearance; a path covered by a shorter one read whole is dropped. */
export function conditionPaths(ast: ASTNode): string[] {
  const found: string[] = [];
  walk(ast, new Set(), found);
  const distinct = [...new Set(found)];
  return distinct.filter((p) => !distinct.some((q) => q !== p && p.startsWith(`${q}.`)));
}
