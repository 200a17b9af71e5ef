// `arbiter mcp-proxy --config <file> [--http <port>]` (docs/agents.md): Arbiter in front of MCP
// servers. Runs until its client goes away (stdio) or it is stopped (SIGINT, SIGTERM); exit 0 then,
// 2 when the configuration, the API key or an upstream is not usable at start.
import { type CommandContext } from '../context';
import { CliError, EXIT } from '../io';
import { McpConfigError, parseMcpConfig } from '../mcp/config';
import { isLoopbackHost } from '../mcp/loopback';
import { createProxyServer } from '../mcp/proxy';
import { serveHttp, serveStdio } from '../mcp/serve';
import { UpstreamError, Upstreams } from '../mcp/upstreams';
import { version } from '../../package.json';

export interface McpProxyOptions {
  config: string;
  http?: string;
  host: string;
}

const IDENTITY = { name: 'arbiter-mcp-proxy', version };
/** The bearer token HTTP clients must send (required off loopback); from the environment, never argv. */
export const HTTP_TOKEN_ENV = 'ARBITER_MCP_PROXY_TOKEN';

export async function mcpProxy(ctx: CommandContext, opts: McpProxyOptions): Promise<number> {
  const text = await ctx.readText(opts.config, 'MCP proxy configuration');
  let config;
  try {
    config = parseMcpConfig(opts.config, text);
  } catch (err) {
    if (err instanceof McpConfigError)
      throw new CliError(
        `the MCP proxy configuration is not valid (${err.problems.length} ${err.problems.length === 1 ? 'problem' : 'problems'}):\n${err.message}`,
        EXIT.usage,
      );
    throw err;
  }
  const port = opts.http === undefined ? undefined : Number(opts.http);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new CliError(`--http takes a port number (0 to 65535; 0 picks a free one), not "${opts.http}"`);
  // The environment's, else the clone's quickstart file's (only towards the stack it was made for: docs/cli.md "Configuration").
  const apiKey = ctx.io.env[config.apiKeyEnv] || ctx.quickstartKey(config.apiKeyEnv, 'verdict', config.verdictUrl);
  if (!apiKey)
    throw new CliError(
      `${opts.config}: api_key_env: the environment variable ${config.apiKeyEnv} holds no API key (an agent's key with the check permission)`,
    );
  // The key goes to the verdict gateway with every check: a file naming another variable
  // (AWS_SECRET_ACCESS_KEY, …) must not make the proxy send that secret. The value is never shown.
  if (!apiKey.startsWith('ak-'))
    throw new CliError(
      `${opts.config}: api_key_env: the environment variable ${config.apiKeyEnv} holds no Arbiter API key (ak-…); the proxy sends nothing else to the verdict gateway`,
    );
  const token = ctx.io.env[HTTP_TOKEN_ENV] || undefined;
  if (port !== undefined && !isLoopbackHost(opts.host) && !token) {
    throw new CliError(
      `--host ${opts.host} is not a loopback address: whoever reaches the proxy acts with its API key, so set ${HTTP_TOKEN_ENV} (clients then send Authorization: Bearer <token>)`,
    );
  }
  const guard = ctx.verdict({ url: config.verdictUrl, apiKey, tenant: config.tenant });

  const log = (line: string) => {
    if (!ctx.global.quiet) ctx.io.stderr(`arbiter mcp-proxy: ${line}\n`);
  };
  let upstreams: Upstreams;
  try {
    upstreams = await Upstreams.connect(config.upstreams, IDENTITY);
  } catch (err) {
    if (err instanceof UpstreamError) throw new CliError(err.message);
    throw err;
  }

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const newServer = () => createProxyServer({ config, upstreams, guard, identity: IDENTITY, log });
    const names = upstreams.names.join(', ');
    if (port === undefined) {
      log(`serving over stdio; upstreams: ${names}; verdict gateway ${guard.baseUrl}`);
      await serveStdio(newServer(), process.stdin, process.stdout, stop.signal);
    } else {
      const served = await serveHttp(newServer, { host: opts.host, port, stop: stop.signal, log, token }).catch(
        (err: NodeJS.ErrnoException) => {
          throw err.code ? new CliError(`cannot listen on ${opts.host}:${port}: ${err.message}`) : err;
        },
      );
      // The address is the command's one line of output, shown even with --quiet.
      ctx.io.stderr(`arbiter mcp-proxy: listening on ${served.url}; upstreams: ${names}; verdict gateway ${guard.baseUrl}\n`);
      await served.done;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await upstreams.close();
  }
  log('stopped');
  return EXIT.ok;
}
