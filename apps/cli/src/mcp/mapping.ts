// From an MCP tool call to the operation Arbiter checks (docs/agents.md "The proxy's configuration"):
// action = the mapping's or mcp.<upstream>.<tool>; resource = the mapping's template over the
// arguments, or mcp:<upstream>/<tool>; scope = the file's scope with the mapping's over it;
// parameters = the arguments.
import type { GuardedCall, Requirement } from '@arbiter/client';
import type { McpProxyConfig, ScopeValue } from './config';
import { renderTemplate } from './templates';

/** Where a tool lives: its upstream and its own name there. */
export interface ToolRoute {
  upstream: string;
  tool: string;
}

export const toolKey = (route: ToolRoute) => `${route.upstream}.${route.tool}`;

/**
 * The operation, or why there is none: arguments a template needs are missing (the rules' vocabulary:
 * insufficient context), or an argument a template reads is not a string, number or boolean.
 */
export type Operation = { ok: true; call: GuardedCall } | { ok: false; missing: Requirement[]; invalid: string[] };

export function operationOf(config: Pick<McpProxyConfig, 'scope' | 'tools'>, route: ToolRoute, args: Record<string, unknown>): Operation {
  const key = toolKey(route);
  const mapping = config.tools[key] ?? {};
  const missing: Requirement[] = [];
  const invalid: string[] = [];
  const render = (template: string, where: string): string => {
    const r = renderTemplate(template, args);
    if (r.ok) return r.text;
    for (const field of r.notScalar)
      invalid.push(
        `the argument ${field} is an object or an array, and the proxy's ${where} "${template}" of ${key} takes a string, a number or a boolean`,
      );
    for (const field of r.missing) {
      if (!missing.some((m) => m.field === field)) {
        missing.push({ field, type: 'any', reason: `absent; the proxy's ${where} "${template}" of ${key} reads it`, problems: ['absent'] });
      }
    }
    return '';
  };
  const resource = mapping.resource === undefined ? `mcp:${route.upstream}/${route.tool}` : render(mapping.resource, 'resource');
  const scope: Record<string, ScopeValue> = {};
  for (const [field, value] of Object.entries({ ...config.scope, ...mapping.scope })) {
    scope[field] = typeof value === 'string' ? render(value, `scope.${field}`) : value;
  }
  if (missing.length || invalid.length) return { ok: false, missing, invalid };
  return { ok: true, call: { action: mapping.action ?? `mcp.${route.upstream}.${route.tool}`, resource, scope, parameters: args } };
}
