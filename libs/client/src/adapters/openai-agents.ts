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

export type GuardAgentsToolOptions<Input = Record<string, unknown>> = GuardToolOptions<Input>;

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
      const parsed = parseInput(input);
      if (parsed === undefined) {
        const outcome: Exclude<GuardOutcome, { kind: 'allowed' }> = { kind: 'unavailable', error: 'the tool input is not a JSON object' };
        if (opts.onRefusal === 'throw') throw new ToolRefusedError(tool.name, outcome);
        return `Arbiter could not check the call (the tool input is not a JSON object). The call was not run.`;
      }
      const result = await runGuarded(
        client,
        tool.name,
        parsed,
        opts,
        () => invoke.call(tool, runContext, input, details),
        details?.signal,
      );
      // The model reads a function tool's result as text: a refusal is its message.
      return isToolRefusal(result) ? result.message : result;
    },
  };
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
