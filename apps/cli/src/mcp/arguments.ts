// A call's arguments held to the tool's own input schema before anything else (docs/agents.md "From a
// call to a check"). The rules judge the arguments as JSON values: `amount: "5000"` is a string, and
// `amount gt 1000` does not fire on a string. An upstream that coerces ("5000" → 5000, as a lax
// validator does) would then run a call the rules never judged. Arguments the tool's schema refuses
// are refused here, unchecked and unforwarded, so what is checked is what the tool declared it takes.
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { bracketPath, findMemberName } from '@arbiter/input';

/** Dialects before 2019-09 are checked as draft-07; anything else (MCP's default included) as 2020-12. */
const OLD_DIALECT = /json-schema\.org\/draft-0[4-7]\/schema/;

// Formats are the upstream's business (they narrow a type, they never change it); remote references
// are never fetched. One Ajv per schema, so no upstream's `$id` can stand in for another's.
const OPTIONS = { strict: false, validateSchema: false, validateFormats: false, allErrors: false, loadSchema: undefined } as const;

type Checker = { ok: true; validate: ValidateFunction } | { ok: false; problem: string };
const compiled = new WeakMap<Tool, Checker>();

function checkerOf(tool: Tool): Checker {
  let checker = compiled.get(tool);
  if (!checker) {
    const schema = tool.inputSchema as Record<string, unknown>;
    try {
      const ajv = typeof schema.$schema === 'string' && OLD_DIALECT.test(schema.$schema) ? new Ajv(OPTIONS) : new Ajv2020(OPTIONS);
      checker = { ok: true, validate: ajv.compile(schema) };
    } catch (err) {
      checker = { ok: false, problem: `the tool's input schema cannot be used to check its arguments (${(err as Error).message})` };
    }
    compiled.set(tool, checker);
  }
  return checker;
}

/** Why the arguments do not fit the tool's input schema, or null when they do. */
export function argumentsProblem(tool: Tool, args: Record<string, unknown>): string | null {
  const checker = checkerOf(tool);
  if (!checker.ok) return checker.problem;
  if (checker.validate(args)) return null;
  const e = checker.validate.errors?.[0];
  const where = e?.instancePath ? `arguments${e.instancePath.replace(/\//g, '.')}` : 'the arguments';
  return `${where} ${e?.message ?? 'do not match'} (the tool's input schema)`;
}

/**
 * An argument whose name holds a dot, at any depth: the gateway refuses such parameters (docs/verdicts.md
 * "Parameters and context": rules read arguments by dot path, so `"transfer.amount"` is a value no rule
 * reads while the tool does). Said here, before any check, rather than as a gateway error. null when none.
 */
export function dottedNameProblem(args: Record<string, unknown>): string | null {
  const at = findMemberName(args, (name) => name.includes('.'));
  if (at === null) return null;
  return `${bracketPath(['arguments', ...at], { maxName: 200 })} has a dot in its name, and the rules read arguments by dot path: they could not judge it`;
}
