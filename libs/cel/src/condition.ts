// Override conditions as CEL expressions (Common Expression Language; cel.dev), compiled once and
// evaluated many times. One implementation for the registry (which refuses a condition it cannot
// parse when the override is written) and the verdict gateway (which evaluates it on every check).
// The library choice is ADR 0007.
//
// A condition reads the evaluation context by name: `amount < 20 && currency == "EUR"`,
// `transfer.amount <= 5000`, `scope.region == "eu"`, `action.startsWith("payments.")`. The names it
// reads are found in the syntax tree as dot paths (`transfer.amount`), so the caller reads exactly
// those with its own field reader and can tell "a name is absent" (the override does not apply,
// and resolve may ask for it) from "the expression is false".
import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { calledFunctions, comprehensionNesting, conditionPaths } from './paths';

/**
 * Functions a condition may not call. `matches` runs a JavaScript RegExp built on every call, and a
 * pattern with nested quantifiers can backtrack for seconds on a short input: one override could stall
 * every check of its tenant. `startsWith`, `endsWith` and `contains` cover the string tests overrides
 * need. (ADR 0007.) `cel.bind` names a value that can be doubled at each of 30 nested levels: a
 * gigabyte from a short string (ADR 0015).
 */
const FORBIDDEN_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['matches', 'matches() is not allowed in conditions (use startsWith, endsWith or contains)'],
  ['bind', 'cel.bind() is not allowed in conditions'],
]);

/**
 * What one evaluation may read (ADR 0015): the values of the paths a condition names, together. A
 * comprehension visits each element once, and one inside another is refused, so the work of an
 * evaluation stays within a small multiple of these.
 */
export const MAX_CONDITION_INPUT = Object.freeze({ elements: 1_000, characters: 10_000 });

/** Longest condition accepted, in characters (the registry's column holds 20,000). */
export const MAX_CONDITION_LENGTH = 20_000;

/**
 * One environment for every condition: names not declared are dynamic (the context is JSON), list
 * and map literals may mix types as JSON does, and parse-time limits keep a hostile expression from
 * costing more than a small one.
 */
const environment = new Environment({
  unlistedVariablesAreDyn: true,
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 1_000, maxDepth: 32, maxListElements: 1_000, maxMapEntries: 1_000, maxCallArguments: 32 },
});

/** The expression cannot be used as a condition; `message` says why in a sentence. */
export class CelConditionError extends Error {
  readonly code = 'invalid_conditions';
  constructor(message: string) {
    super(message);
    this.name = 'CelConditionError';
  }
}

/** The outcome of one evaluation: a boolean, or why there is none (an error, a non-boolean value). */
export type CelOutcome = { ok: true; value: boolean } | { ok: false; error: string };

export interface CelCondition {
  readonly source: string;
  /**
   * The context paths the expression reads, each at most once, none a prefix of another
   * (`transfer` covers `transfer.amount`), in order of first appearance.
   */
  readonly paths: readonly string[];
  /** Evaluates against an activation: each path's value placed at its path (see `activationOf`). */
  evaluate(activation: Record<string, unknown>): CelOutcome;
}

/**
 * Why an evaluation failed, without the values it read: the library's messages quote them (`No such key: <the
 * value of the index>`, `Invalid duration string: <the value>`), and this text goes into the consultation's trace,
 * which is hashed, signed, sealed and kept past the erasure of a sensitive value (docs/verdicts.md "Sensitive
 * fields"). Only the library's error code is kept.
 */
function evaluationFailure(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return `evaluation failed (${typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : 'evaluation_error'})`;
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0];
}

/**
 * Parses and type-checks a condition. Throws CelConditionError for anything but a boolean CEL
 * expression (free text, a syntax error, a result that can only be a number, an expression too
 * large). Names are not declared: any name is read from the context at evaluation.
 */
export function compileCondition(source: unknown): CelCondition {
  if (typeof source !== 'string' || source.trim() === '') throw new CelConditionError('conditions must be a non-empty CEL expression');
  if (source.length > MAX_CONDITION_LENGTH) throw new CelConditionError(`conditions is longer than ${MAX_CONDITION_LENGTH} characters`);
  let program: ReturnType<Environment['parse']>;
  try {
    program = environment.parse(source);
  } catch (err) {
    throw new CelConditionError(`conditions is not a CEL expression: ${firstLine(err)}`);
  }
  for (const name of calledFunctions(program.ast as ASTNode)) {
    const why = FORBIDDEN_FUNCTIONS.get(name);
    if (why) throw new CelConditionError(why);
  }
  if (comprehensionNesting(program.ast as ASTNode) > 1) {
    throw new CelConditionError('a comprehension (all, exists, exists_one, map, filter) inside another is not allowed in conditions');
  }
  let checked: ReturnType<typeof program.check>;
  try {
    checked = program.check();
  } catch (err) {
    throw new CelConditionError(`conditions does not type-check: ${firstLine(err)}`);
  }
  if (!checked.valid) throw new CelConditionError(`conditions does not type-check: ${firstLine(checked.error)}`);
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    throw new CelConditionError(`conditions must be a boolean expression; this one gives ${checked.type}`);
  }
  const paths = conditionPaths(program.ast as ASTNode);
  return {
    source,
    paths,
    evaluate(activation) {
      const tooLarge = inputProblem(activation);
      if (tooLarge) return { ok: false, error: tooLarge };
      let value: unknown;
      try {
        value = program(activation);
      } catch (err) {
        return { ok: false, error: evaluationFailure(err) };
      }
      if (typeof value !== 'boolean')
        return { ok: false, error: `the expression gave ${value === null ? 'null' : typeof value}, not a boolean` };
      return { ok: true, value };
    },
  };
}

/**
 * Why the values an evaluation reads are too large (MAX_CONDITION_INPUT), or null: list elements and
 * map members at every depth, and string characters, counted over the whole activation, stopping at
 * the first excess. A condition that cannot be evaluated fails closed (the override does not apply).
 */
function inputProblem(activation: Record<string, unknown>): string | null {
  let elements = 0;
  let characters = 0;
  const stack: unknown[] = [activation];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') characters += v.length;
    else if (Array.isArray(v)) {
      elements += v.length;
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const k in v) {
        if (v !== activation) elements++;
        characters += k.length;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
    if (elements > MAX_CONDITION_INPUT.elements)
      return `the values the expression reads hold more than ${MAX_CONDITION_INPUT.elements} list elements and map members`;
    if (characters > MAX_CONDITION_INPUT.characters)
      return `the values the expression reads hold more than ${MAX_CONDITION_INPUT.characters} characters`;
  }
  return null;
}

/** Why `source` cannot be a condition, or null when it can (for write-time validation). */
export function conditionProblem(source: unknown): string | null {
  try {
    compileCondition(source);
    return null;
  } catch (err) {
    if (err instanceof CelConditionError) return err.message;
    throw err;
  }
}

/**
 * The activation of a condition: each path's value set at its dot path in nested plain objects
 * (`transfer.amount` → `{transfer: {amount: v}}`). JSON values pass as they are: strings, booleans,
 * null, arrays as lists, objects as maps, and every number as a CEL double (CEL's own JSON mapping),
 * which compares with int literals (`amount < 20`) as CEL's numeric comparisons allow.
 */
export function activationOf(paths: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null);
  for (let i = 0; i < paths.length; i++) {
    const segments = paths[i].split('.');
    let node = root;
    for (let s = 0; s < segments.length - 1; s++) {
      const next = node[segments[s]];
      if (next !== null && typeof next === 'object') node = next as Record<string, unknown>;
      else node = node[segments[s]] = Object.create(null) as Record<string, unknown>;
    }
    node[segments[segments.length - 1]] = values[i];
  }
  return root;
}
