// The MCP servers behind the proxy: one SDK Client each, over stdio (a process the proxy starts) or
// Streamable HTTP. Their tools are offered under `<upstream>.<tool>` when there are several upstreams,
// under their own names when there is one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamConfig } from './config';
import type { ToolRoute } from './mapping';

export interface ProxyIdentity {
  name: string;
  version: string;
}

interface Connected {
  config: UpstreamConfig;
  client: Client;
}

/** An upstream that could not be started or reached. */
export class UpstreamError extends Error {}

export class Upstreams {
  private toolsChanged: (() => void)[] = [];
  /** Each upstream's tools by name as last listed; forgotten when it announces a change. */
  private readonly known = new Map<string, Map<string, Tool>>();

  private constructor(private readonly connected: Connected[]) {
    for (const { config, client } of connected) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.known.delete(config.name);
        this.toolsChanged.forEach((f) => f());
      });
    }
  }

  /** Starts or connects to every upstream; closes the ones already connected when one fails. */
  static async connect(configs: UpstreamConfig[], identity: ProxyIdentity): Promise<Upstreams> {
    const connected: Connected[] = [];
    try {
      for (const config of configs) {
        const client = new Client(identity, { capabilities: {} });
        try {
          await client.connect(transportOf(config));
        } catch (err) {
          await client.close().catch(() => undefined);
          throw new UpstreamError(`cannot connect to upstream ${config.name} (${describe(config)}): ${(err as Error).message}`);
        }
        connected.push({ config, client });
      }
    } catch (err) {
      await Promise.all(connected.map((c) => c.client.close().catch(() => undefined)));
      throw err;
    }
    return new Upstreams(connected);
  }

  get names(): string[] {
    return this.connected.map((c) => c.config.name);
  }

  /** The name a client sees for an upstream's tool. */
  exposedName(route: ToolRoute): string {
    return this.connected.length === 1 ? route.tool : `${route.upstream}.${route.tool}`;
  }

  /** The upstream and tool a client's tool name stands for, or null. */
  route(name: string): ToolRoute | null {
    if (this.connected.length === 1) return { upstream: this.connected[0].config.name, tool: name };
    const dot = name.indexOf('.');
    if (dot <= 0) return null;
    const upstream = name.slice(0, dot);
    return this.connected.some((c) => c.config.name === upstream) ? { upstream, tool: name.slice(dot + 1) } : null;
  }

  /** Every upstream's tools (all pages), renamed for the client; schemas and annotations unchanged. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const lists = await Promise.all(
      this.connected.map(async (upstream) =>
        (await this.toolsOf(upstream, options)).map((t) => ({
          ...t,
          name: this.exposedName({ upstream: upstream.config.name, tool: t.name }),
        })),
      ),
    );
    return lists.flat();
  }

  /**
   * The tool as the upstream lists it (its list is read again when the tool is not in the last one),
   * or null when the upstream does not offer it: the name must match exactly.
   */
  async tool(route: ToolRoute, options?: RequestOptions): Promise<Tool | null> {
    const upstream = this.connected.find((c) => c.config.name === route.upstream);
    if (!upstream) return null;
    const known = this.known.get(route.upstream)?.get(route.tool);
    if (known) return known;
    await this.toolsOf(upstream, options);
    return this.known.get(route.upstream)?.get(route.tool) ?? null;
  }

  private async toolsOf({ config, client }: Connected, options?: RequestOptions): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    // The first of two tools listed under one name is the one checked and called.
    const byName = new Map<string, Tool>();
    for (const t of tools) if (!byName.has(t.name)) byName.set(t.name, t);
    this.known.set(config.name, byName);
    return tools;
  }

  /** Calls the tool on its upstream; the result is the upstream's, as it sent it. */
  async call(
    route: ToolRoute,
    args: Record<string, unknown>,
    meta: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<CallToolResult> {
    const upstream = this.connected.find((c) => c.config.name === route.upstream);
    if (!upstream) throw new UpstreamError(`no upstream ${route.upstream}`);
    return (await upstream.client.request(
      { method: 'tools/call', params: { name: route.tool, arguments: args, _meta: meta } },
      CallToolResultSchema,
      options,
    )) as CallToolResult;
  }

  onToolsChanged(listener: () => void): () => void {
    this.toolsChanged.push(listener);
    return () => {
      this.toolsChanged = this.toolsChanged.filter((f) => f !== listener);
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.connected.map((c) => c.client.close().catch(() => undefined)));
  }
}

function transportOf(config: UpstreamConfig) {
  if (config.kind === 'http') return new StreamableHTTPClientTransport(new URL(config.url));
  // The SDK's default environment (PATH, HOME, …) plus the upstream's own variables: the proxy's API
  // key is not handed to the servers it guards.
  return new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd,
    stderr: 'inherit',
  });
}

const describe = (config: UpstreamConfig) => (config.kind === 'http' ? config.url : [config.command, ...config.args].join(' '));
