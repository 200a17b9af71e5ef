// guardTool for the Vercel AI SDK (`ai`): the wrapped tool asks Arbiter before its execute runs
// (docs/agents.md "Framework adapters"). Typed structurally, so @arbiter/client needs no `ai` at run time.
import type { GuardClient } from '../guard/guard';
import { runGuarded, type GuardToolOptions, type ToolRefusal } from './guarded-tool';

/** The part of an `ai` tool's execute options the guard reads. */
export interface AiToolExecutionOptions {
  toolCallId: string;
  abortSignal?: AbortSignal;
}

/** An `ai` tool (what `tool({...})` returns). Typed loosely on purpose: any tool's execute fits. */
export interface AiToolLike {
  execute?: (input: never, options: never) => unknown;
}

type InputOf<T extends AiToolLike> = NonNullable<T['execute']> extends (input: infer I, options: never) => unknown ? I : unknown;
/**
 * The tool as guardAiTool returns it: the same type, so it goes wherever the original goes (a `tools`
 * object of generateText, streamText or an Agent). Its execute may answer a ToolRefusal instead of the
 * original's output (the `ai` types cannot say so without the SDK depending on `ai`): isToolRefusal tells.
 */
export type GuardedAiTool<T extends AiToolLike> = T;

export interface GuardAiToolOptions<Input> extends GuardToolOptions<Input> {
  /** The tool's name (its key in the tools object): the default action `tool.<name>` and resource. */
  name: string;
}

/** The tool, with an execute that runs the original only when Arbiter allows the call. */
export function guardAiTool<T extends AiToolLike>(client: GuardClient, tool: T, opts: GuardAiToolOptions<InputOf<T>>): GuardedAiTool<T> {
  const execute = tool.execute as ((input: unknown, options: AiToolExecutionOptions) => unknown) | undefined;
  if (typeof execute !== 'function') throw new TypeError(`guardAiTool: tool ${opts.name} has no execute function to guard`);
  const guarded = (input: InputOf<T>, options: AiToolExecutionOptions): Promise<unknown | ToolRefusal> =>
    runGuarded(client, opts.name, input, opts, () => execute.call(tool, input, options), options?.abortSignal);
  return { ...tool, execute: guarded };
}

/** Every tool of an `ai` tools object guarded, each under its key as name; `perTool` overrides by name. */
export function guardAiTools<Tools extends Record<string, AiToolLike>>(
  client: GuardClient,
  tools: Tools,
  opts: Omit<GuardAiToolOptions<unknown>, 'name'> & {
    perTool?: { [K in keyof Tools]?: Omit<GuardAiToolOptions<InputOf<Tools[K]>>, 'name'> };
  } = {},
): { [K in keyof Tools]: GuardedAiTool<Tools[K]> } {
  const { perTool, ...shared } = opts;
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    out[name] = tool.execute
      ? guardAiTool(client, tool, { ...shared, ...(perTool?.[name] as GuardToolOptions<unknown> | undefined), name })
      : tool;
  }
  return out as { [K in keyof Tools]: GuardedAiTool<Tools[K]> };
}
