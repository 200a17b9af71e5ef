// guardTool for the OpenAI Agents SDK (`@openai/agents`): the wrapped function tool asks Arbiter before
// its invoke runs (docs/agents.md "Framework adapters"). Typed structurally, so @arbiter/client needs no
// `@openai/agents` at run time.
import { isPlainObject } from '@arbiter/input';
import type { GuardClient } from '../guard/guard';
import type { GuardOutcome } from '../guard/outcome';
import { isToolRefusal, runGuarded, ToolRefusedError, type GuardToolOptions } from './guarded-tool';

/** The part of a FunctionTool (what `tool({...})` returns) the guard needs. */
export interface AgentsFunctionToolLike {
  type: 'function';
  name: string;
  invoke: (runContext: never, input: string, details?: never) => Promise<unknown>;
}

export interface GuardAgentsToolOptions<Input = Record<string, unknown>> extends GuardToolOptions<Input> {
  /**
   * The tool's own input parser, e.g. `(input) => schema.parse(input)` with the zod schema given to `tool()`: the
   * check then judges what it returns, which is what the tool's execute receives. Give it whenever the schema changes
   * values (`trim()`, `toLowerCase()`, defaults, coercion, `transform()`): the SDK parses the model's JSON with the
   * schema after the guard has seen it, so without `parse` the check judges the JSON as the model sent it (`"
   * offshore-7"`) while execute runs with the schema's value (`"offshore-7"`). An input it throws on is refused
   * before any check.
   */
  parse?: (input: unknown) => unknown;
}

/**
 * The function tool, with an invoke that runs the original only when Arbiter allows the call. The model's
 * input arrives as JSON text: text that is not a JSON object (or empty, for a tool without parameters)
 * is refused before any check, never passed on.
 */
export function guardAgentsTool<T extends AgentsFunctionToolLike>(client: GuardClient, tool: T, opts: GuardAgentsToolOptions = {}): T {
  const invoke = tool.invoke as (runContext: unknown, input: string, details?: unknown) => Promise<unknown>;
  if (tool.type !== 'function' || typeof invoke !== 'function')
    throw new TypeError(`guardAgentsTool: ${String(tool.name)} is not a function tool`);
  return {
    ...tool,
    invoke: async (runContext: unknown, input: string, details?: { signal?: AbortSignal }) => {
      const parsed = checkedInput(input, opts.parse);
      if (typeof parsed === 'string') {
        const outcome: Exclude<GuardOutcome, { kind: 'allowed' }> = { kind: 'unavailable', error: parsed };
        if (opts.onRefusal === 'throw') throw new ToolRefusedError(tool.name, outcome);
        return `Arbiter could not check the call (${parsed}). The call was not run.`;
      }
      const result = await runGuarded(
        client,
        tool.name,
        parsed.value as Record<string, unknown>,
        opts,
        () => invoke.call(tool, runContext, input, details),
        details?.signal,
      );
      // The model reads a function tool's result as text: a refusal is its message.
      return isToolRefusal(result) ? result.message : result;
    },
  };
}

/** The input the check judges: the model's JSON object, through the tool's own parser when given; a string says why there is none. */
function checkedInput(input: string, parse: ((input: unknown) => unknown) | undefined): { value: unknown } | string {
  const parsed = parseInput(input);
  if (parsed === undefined) return 'the tool input is not a JSON object';
  if (!parse) return { value: parsed };
  try {
    return { value: parse(parsed) };
  } catch {
    return "the tool input does not match the tool's schema";
  }
}

function parseInput(input: string): Record<string, unknown> | undefined {
  if (input.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(input);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
