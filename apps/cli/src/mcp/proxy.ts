// The proxy's MCP server (docs/agents.md): a ListTools request passes the upstreams' tools through
// unchanged (renamed when there are several upstreams); every CallTool request goes through guardCall and only an
// `allowed` outcome reaches the upstream, with the signed verdict in `_meta`. Every other outcome,
// a failure to get a verdict included, is an error result and the upstream never sees the call; so is
// a call whose arguments do not fit the tool's input schema, refused before any check.
import { describeOutcome, guardCall, type GuardClient, type GuardOutcome, type GuardProgress } from '@arbiter/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpProxyConfig } from './config';
import { argumentsProblem, dottedNameProblem } from './arguments';
import { operationOf, toolKey, type ToolRoute } from './mapping';
import type { ProxyIdentity, Upstreams } from './upstreams';

/** `_meta` keys the proxy writes on forwarded calls and on results. */
export const META = {
  verdict: 'arbiter/verdict',
  consultationId: 'arbiter/consultation_id',
  approvalId: 'arbiter/approval_id',
  requiredContext: 'arbiter/required_context',
  outcome: 'arbiter/outcome',
  ruleId: 'arbiter/rule_id',
  explanation: 'arbiter/explanation',
  limits: 'arbiter/limits',
} as const;

export interface ProxyDeps {
  config: Pick<McpProxyConfig, 'scope' | 'tools' | 'onApproval' | 'waitSeconds'>;
  upstreams: Upstreams;
  guard: GuardClient;
  identity: ProxyIdentity;
  /** One line per event, on stderr (stdout is the MCP channel in stdio mode). */
  log: (line: string) => void;
}

/** One MCP server; the HTTP transport makes one per client session, all sharing the upstreams. */
export function createProxyServer(deps: ProxyDeps): Server {
  const server = new Server(deps.identity, {
    capabilities: { tools: { listChanged: true } },
    instructions: 'Every tool call is checked by Arbiter before it reaches the tool; a refused call returns an error result that says why.',
  });
  const unsubscribe = deps.upstreams.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined));
  server.onclose = unsubscribe;

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: await deps.upstreams.listTools({ signal: extra.signal }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {}, _meta: clientMeta } = request.params;
    // A name no upstream offers is not checked (it would leave a consultation of a call that cannot
    // happen) nor forwarded.
    const route = deps.upstreams.route(name);
    const tool = route ? await deps.upstreams.tool(route, { signal: extra.signal }) : null;
    if (!route || !tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const progressToken = clientMeta?.progressToken;
    const notifyProgress = (progress: number, message: string) => {
      if (progressToken === undefined) return;
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
    };

    const operation = operationOf(deps.config, route, args);
    // Arguments the rules could judge otherwise than the tool reads them are refused before any check.
    const invalid = operation.ok ? (argumentsProblem(tool, args) ?? dottedNameProblem(args)) : operation.invalid.join('; ') || null;
    if (invalid) {
      deps.log(`${toolKey(route)}: invalid_arguments: ${invalid}`);
      return invalidArgumentsResult(invalid);
    }
    const outcome: GuardOutcome = operation.ok
      ? await guardCall(deps.guard, operation.call, {
          onApproval: deps.config.onApproval,
          waitSeconds: deps.config.waitSeconds,
          signal: extra.signal,
          onProgress: (p) => notifyProgress(p.attempt, progressMessage(p)),
        })
      : { kind: 'insufficient_context', missing: operation.missing };
    deps.log(
      `${toolKey(route)}: ${outcome.kind}${'consultationId' in outcome ? ` (${outcome.consultationId})` : ''}${outcome.kind === 'unavailable' ? `: ${outcome.error}` : ''}`,
    );
    if (outcome.kind !== 'allowed') return refusalResult(outcome);

    // Forward: the client's _meta (its own progress token aside: the SDK gives the upstream request
    // one of its own; and nothing in the arbiter/ namespace, which only the proxy writes) with the
    // signed verdict and the consultation.
    const { progressToken: _token, ...clientOwn } = clientMeta ?? {};
    const forwardedMeta = withoutArbiterKeys(clientOwn);
    const arbiterMeta = {
      [META.consultationId]: outcome.consultationId,
      ...(outcome.approvalId ? { [META.approvalId]: outcome.approvalId } : {}),
    };
    try {
      const result = await deps.upstreams.call(
        route,
        args,
        { ...forwardedMeta, [META.verdict]: outcome.signedVerdict, ...arbiterMeta },
        {
          signal: extra.signal,
          resetTimeoutOnProgress: true,
          ...(progressToken === undefined ? {} : { onprogress: (p) => notifyProgress(p.progress, p.message ?? '') }),
        },
      );
      return { ...result, _meta: { ...withoutArbiterKeys(result._meta), ...arbiterMeta } };
    } catch (err) {
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout) throw err;
      deps.log(`${toolKey(route)}: the upstream failed: ${(err as Error).message}`);
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `Arbiter allowed the call (consultation ${outcome.consultationId}), but the upstream ${route.upstream} failed: ${(err as Error).message}`,
          },
        ],
        _meta: arbiterMeta,
      };
    }
  });
  return server;
}

/**
 * `_meta` without the members of the arbiter/ namespace (in any case): a client cannot hand the upstream
 * an approval id or a verdict of its own making, nor an upstream tell the client an outcome.
 */
export function withoutArbiterKeys(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta ?? {}).filter(([key]) => !key.toLowerCase().startsWith('arbiter/')));
}

/** A call refused before any check: its arguments do not fit the tool (docs/agents.md "From a call to a check"). */
export function invalidArgumentsResult(problem: string): CallToolResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Arbiter refused the call before checking it: ${problem}. The call was not forwarded; call again with arguments the tool's input schema accepts.`,
      },
    ],
    _meta: { [META.outcome]: 'invalid_arguments' },
  };
}

function progressMessage(p: GuardProgress): string {
  return `Waiting for Arbiter approval ${p.approvalId}: ${p.status} (${Math.ceil(p.remainingMs / 1000)} s left)`;
}

/** The error result of an outcome that does not let the call run (docs/agents.md). */
export function refusalResult(outcome: Exclude<GuardOutcome, { kind: 'allowed' }>): CallToolResult {
  const meta: Record<string, unknown> = { [META.outcome]: outcome.kind };
  switch (outcome.kind) {
    case 'blocked':
      Object.assign(
        meta,
        { [META.consultationId]: outcome.consultationId, [META.ruleId]: outcome.ruleId, 'arbiter/reason': outcome.reason },
        outcome.approvalId ? { [META.approvalId]: outcome.approvalId } : {},
      );
      break;
    case 'approval_pending':
      Object.assign(meta, { [META.consultationId]: outcome.consultationId, [META.approvalId]: outcome.approvalId });
      break;
    case 'insufficient_context':
      meta[META.requiredContext] = outcome.missing;
      break;
    case 'unavailable':
      break;
  }
  // What would make the call allowed (docs/agents.md "What the agent sees"), asked of the gateway for this refusal only.
  if ((outcome.kind === 'blocked' || outcome.kind === 'approval_pending') && outcome.explanation)
    meta[META.explanation] = outcome.explanation;
  // Where each window the answer read stood (docs/verdicts.md "Budgets, rates and sequences"): a full budget explains itself.
  if ((outcome.kind === 'blocked' || outcome.kind === 'approval_pending') && outcome.limits) meta[META.limits] = outcome.limits;
  return { isError: true, content: [{ type: 'text', text: describeOutcome(outcome) }], _meta: meta };
}

export type { ToolRoute };
