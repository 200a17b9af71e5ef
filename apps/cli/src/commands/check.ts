// `arbiter check` (docs/cli.md "Checks, scopes and approvals"): POST /<tenant>/v1/check with the agent's key, the verdict
// printed. The exit code says whether the operation may run: 0 for `allowed` and `observe` (what the SDK's guard
// lets through), 1 for `blocked`, `approval_required`, any other verdict and a refusal of the service
// (`insufficient_context` among them), 2 for usage errors and an unreachable service.
import type { CheckResponse, Explanation, LimitEntry, WithLimits } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';

export interface CheckOptions extends ServiceFlags {
  action: string;
  resource: string;
  scope?: string[];
  param?: string[];
  parameters?: string;
  context?: string;
  onBehalfOf?: string;
  explain?: boolean;
}

/** Verdicts that let the operation run (as `guardCall` decides). */
export const RUNNABLE_VERDICTS = new Set(['allowed', 'observe']);

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `5000` → 5000, `true` → true, `"5000"` → "5000", `eu` → "eu": JSON when the text is a JSON scalar, else the text. */
export function scalarOf(text: string): string | number | boolean | null {
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  } catch {
    // not JSON: the text itself
  }
  return text;
}

/** A JSON object given inline (`{…}`); anything else is a usage error naming the option. */
export function jsonObjectOf(text: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${what} is not JSON: ${(err as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CliError(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

/**
 * `key=value` entries (or whole JSON objects) into one object. With `nested`, a dotted key makes nested
 * objects (`transfer.amount=5000` → `{transfer: {amount: 5000}}`), as the rules read parameters by dot path.
 */
export function keyValues(entries: string[], what: string, nested: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of entries) {
    if (/^\s*\{/.test(entry)) {
      Object.assign(out, jsonObjectOf(entry, what));
      continue;
    }
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new CliError(`${what} ${entry}: write key=value (or a JSON object)`);
    const key = entry.slice(0, eq);
    const path = nested ? key.split('.') : [key];
    if (path.some((p) => p === '' || FORBIDDEN_KEYS.has(p))) throw new CliError(`${what} ${entry}: "${key}" is not a usable key`);
    let at = out;
    for (const segment of path.slice(0, -1)) {
      const next = at[segment];
      if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next)))
        throw new CliError(`${what} ${entry}: ${segment} is already a value`);
      at = (at[segment] ??= {}) as Record<string, unknown>;
    }
    at[path.at(-1)!] = scalarOf(entry.slice(eq + 1));
  }
  return out;
}

export function checkBody(opts: CheckOptions) {
  const parameters = {
    ...(opts.parameters ? jsonObjectOf(opts.parameters, '--parameters') : {}),
    ...keyValues(opts.param ?? [], '--param', true),
  };
  return {
    action: opts.action,
    resource: opts.resource,
    scope: keyValues(opts.scope ?? [], '--scope', false) as Record<string, string | number | boolean>,
    ...(Object.keys(parameters).length ? { parameters } : {}),
    ...(opts.context ? { context: jsonObjectOf(opts.context, '--context') } : {}),
    ...(opts.onBehalfOf ? { on_behalf_of: opts.onBehalfOf } : {}),
    ...(opts.explain ? { explain: true } : {}),
  };
}

const OP_TEXT: Record<string, string> = { lte: '<=', lt: '<', gte: '>=', gt: '>', eq: '=', neq: '!=', in: 'in', not_in: 'not in' };

/**
 * An explanation in words (docs/verdicts.md "Explanations"): one `allowed if …` line per alternative (`allowed
 * if amount <= 1200`), and the reason of each row no change can undo (`window full: 50 of 50 in 1h`).
 */
export function explanationLines(e: Explanation): string[] {
  const change = (c: { field: string; op: string; value?: unknown }) =>
    c.op === 'exists' ? `${c.field} is given` : `${c.field} ${OP_TEXT[c.op] ?? c.op} ${JSON.stringify(c.value)}`;
  const lines = e.to_allow.map((a) => `allowed if ${a.changes.map(change).join(' and ')}`);
  for (const row of e.not_invertible as { rule_id: string; reason?: string }[])
    if (row.reason) lines.push(`no change of the operation undoes ${row.rule_id}: ${row.reason}`);
  return lines;
}

/** A window the answer read (the record's `limits`), in words. */
export const limitLine = (l: LimitEntry) =>
  `window ${l.window} of ${l.rule_id} ${l.key}: ${l.used_before} of ${l.max} used before, ${l.used_after} after`;

export function renderCheck(r: WithLimits<CheckResponse>): string {
  const lines = [`${r.verdict}  (consultation ${r.consultation_id}${r.dominating_rule_id ? `, rule ${r.dominating_rule_id}` : ''})`];
  if (r.verdict === 'approval_required') lines.push(`  ask for the approval: arbiter approvals request ${r.consultation_id}`);
  for (const l of r.limits ?? []) lines.push(`  ${limitLine(l)}`);
  if (r.explanation) {
    for (const line of explanationLines(r.explanation)) lines.push(`  ${line}`);
    lines.push(`  explanation: ${JSON.stringify(r.explanation)}`);
  }
  return lines.join('\n');
}

export async function checkCommand(ctx: CommandContext, opts: CheckOptions): Promise<number> {
  const body = checkBody(opts);
  const answer = await ctx.verdict(opts, true, 'agent').check(body as Parameters<ReturnType<CommandContext['verdict']>['check']>[0]);
  ctx.print(answer, renderCheck(answer));
  return RUNNABLE_VERDICTS.has(answer.verdict) ? EXIT.ok : EXIT.failed;
}
