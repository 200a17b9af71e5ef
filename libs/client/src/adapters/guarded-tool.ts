// What the framework adapters share (docs/agents.md "Framework adapters"): from a tool's name and input
// to the GuardedCall guardCall decides, and from a refusal to what the model reads. One mapping for
// every framework, so a tool has the same action, resource and scope whichever adapter wraps it.
import { isPlainObject } from '@arbiter/input';
import { guardCall, type GuardClient, type GuardOptions } from '../guard/guard';
import { describeOutcome, type GuardedCall, type GuardOutcome } from '../guard/outcome';
import type { Explanation, LimitEntry } from '../types';

export interface GuardToolOptions<Input = unknown> extends Omit<GuardOptions, 'signal'> {
  /** The action checked; default `tool.<name>`. */
  action?: string;
  /** The resource checked: a string, or computed from the input; default `tool:<name>`. */
  resource?: string | ((input: Input) => string);
  /** The scope of every check (held to the tenant's scope_schema); default `{}`. */
  scope?: GuardedCall['scope'];
  /** The check's parameters; default the input itself when it is an object, else `{input}`. */
  parameters?: (input: Input) => Record<string, unknown>;
  /** Human principal the agent acts for (check's on_behalf_of). */
  onBehalfOf?: string;
  /**
   * A refused call: `result` (default) returns the refusal for the model to read (its text names the
   * rule, the consultation or the approval); `throw` raises ToolRefusedError carrying the outcome.
   */
  onRefusal?: 'result' | 'throw';
  /** Every outcome, before the tool runs or is refused (logs, the signed verdict of an allowed call). */
  onOutcome?: (outcome: GuardOutcome, call: GuardedCall) => void;
}

/** A guarded tool that did not run; `outcome` says why (docs/agents.md). */
export class ToolRefusedError extends Error {
  override readonly name = 'ToolRefusedError';
  readonly code = 'tool_refused';
  constructor(
    readonly tool: string,
    readonly outcome: Exclude<GuardOutcome, { kind: 'allowed' }>,
  ) {
    super(describeOutcome(outcome));
  }
}

/** What a refused tool returns to the model with `onRefusal: 'result'`. */
export interface ToolRefusal {
  arbiter_refused: true;
  outcome: Exclude<GuardOutcome['kind'], 'allowed'>;
  message: string;
  consultation_id?: string;
  approval_id?: string;
  rule_id?: string | null;
  missing_fields?: string[];
  /** What would make the operation allowed (docs/verdicts.md "Explanations"), when the verdict has one. */
  explanation?: Explanation;
  /** Where each window the answer read stood (docs/verdicts.md "Budgets, rates and sequences"), when it read any. */
  limits?: LimitEntry[];
}

/** The operation a call of tool `name` with `input` stands for. */
export function toolCall<Input>(name: string, input: Input, opts: GuardToolOptions<Input>): GuardedCall {
  const resource = typeof opts.resource === 'function' ? opts.resource(input) : (opts.resource ?? `tool:${name}`);
  const parameters = opts.parameters ? opts.parameters(input) : isPlainObject(input) ? input : { input };
  return {
    action: opts.action ?? `tool.${name}`,
    resource,
    scope: opts.scope ?? {},
    parameters,
    ...(opts.onBehalfOf ? { onBehalfOf: opts.onBehalfOf } : {}),
  };
}

/**
 * Decides one call of a tool: `run` is called only when the outcome is `allowed`; otherwise the refusal
 * is returned or thrown as the options say. A mapping that throws (a resource template over an input
 * the model got wrong) refuses the call too: nothing runs without a verdict.
 */
export async function runGuarded<Input, Output>(
  client: GuardClient,
  name: string,
  input: Input,
  opts: GuardToolOptions<Input>,
  run: () => Output | PromiseLike<Output>,
  signal?: AbortSignal,
): Promise<Output | ToolRefusal> {
  let call: GuardedCall;
  let outcome: GuardOutcome;
  try {
    call = toolCall(name, input, opts);
  } catch (err) {
    call = { action: opts.action ?? `tool.${name}`, resource: '', scope: opts.scope ?? {}, parameters: {} };
    outcome = {
      kind: 'unavailable',
      error: `the call could not be mapped to an operation: ${err instanceof Error ? err.message : String(err)}`,
    };
    return refuse(name, call, outcome, opts);
  }
  outcome = await guardCall(client, call, { ...opts, signal });
  if (outcome.kind === 'allowed') {
    opts.onOutcome?.(outcome, call);
    return run();
  }
  return refuse(name, call, outcome, opts);
}

function refuse<Input>(
  name: string,
  call: GuardedCall,
  outcome: Exclude<GuardOutcome, { kind: 'allowed' }>,
  opts: GuardToolOptions<Input>,
): ToolRefusal {
  opts.onOutcome?.(outcome, call);
  if (opts.onRefusal === 'throw') throw new ToolRefusedError(name, outcome);
  return refusalOf(outcome);
}

/** Whether a guarded tool's answer is a refusal (the tool did not run) rather than the tool's output. */
export const isToolRefusal = (v: unknown): v is ToolRefusal =>
  typeof v === 'object' && v !== null && (v as { arbiter_refused?: unknown }).arbiter_refused === true;

export function refusalOf(outcome: Exclude<GuardOutcome, { kind: 'allowed' }>): ToolRefusal {
  const out: ToolRefusal = { arbiter_refused: true, outcome: outcome.kind, message: describeOutcome(outcome) };
  if ('consultationId' in outcome) out.consultation_id = outcome.consultationId;
  if ('approvalId' in outcome && outcome.approvalId) out.approval_id = outcome.approvalId;
  if (outcome.kind === 'blocked') out.rule_id = outcome.ruleId;
  if (outcome.kind === 'insufficient_context') out.missing_fields = outcome.missing.map((r) => r.field);
  if ('explanation' in outcome && outcome.explanation) out.explanation = outcome.explanation;
  if ('limits' in outcome && outcome.limits) out.limits = outcome.limits;
  return out;
}
