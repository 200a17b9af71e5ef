// The MCP proxy's end-to-end tests (docs/agents.md): the built `arbiter` bin serving MCP over stdio or
// Streamable HTTP, real SDK clients, and the example bank server (examples/mcp/bank-server.mjs) as the
// upstream, over stdio (started by the proxy) or over HTTP (started here). The bank writes every call
// it executes to a journal file, so a test sees what reached it without asking the proxy.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRegistryClient, type VerdictClient } from '@arbiter/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildBin, cli, root } from './cli-harness';
import { provisionTenant, verdictAs, type SdkTenant } from './sdk-harness';
import type { Stack } from './stack';

export const EXAMPLE_DIR = path.join(root, 'examples/mcp');
export const BANK_SERVER = path.join(EXAMPLE_DIR, 'bank-server.mjs');

export interface BankTenant extends SdkTenant {
  /** A human holding role-finance, the deciders of examples/mcp/rules.yaml: approve, read. */
  financeKey: string;
  scopeId: string;
}

/**
 * A tenant with the example's rules (examples/mcp/rules.yaml applied as it is with `arbiter rules apply
 * --scope`, as docs/agents.md does) and a finance decider next to the agent.
 */
export async function provisionBank(stack: Stack): Promise<BankTenant> {
  const t = await provisionTenant(stack, 'mcp');
  const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
  const scope = await reg.createScope({ name: 'bank', selector: { region: 'eu' } });
  const finance = await reg.createPrincipal({ kind: 'human', name: 'finance', roles: ['role-finance'] });
  const financeKey = (await reg.createApiKey({ principal_id: finance.id, permissions: ['approve', 'read'] })).key;
  const arbiter = cli({ ARBITER_REGISTRY_URL: stack.registry.url, ARBITER_API_KEY: t.adminKey });
  const applied = await arbiter('rules', 'apply', '-f', path.join(EXAMPLE_DIR, 'rules.yaml'), '--scope', scope.id);
  if (applied.code !== 0) throw new Error(`rules apply failed: ${applied.stderr}`);
  return { ...t, financeKey, scopeId: scope.id };
}

/** What the proxy's end-to-end tests share: a stack, the bank tenant, the built bin and the agent's environment. */
export interface ProxyRig {
  stack: Stack;
  t: BankTenant;
  /** The agent's verdict client, to read back consultations. */
  agent: VerdictClient;
  dir: string;
  bin: string;
  /** The proxy's environment: the agent's key and the gateway's URL. */
  env: Record<string, string>;
}

/** On a stack with the verdict gateway: the bank tenant, the built bin and the agent's environment. */
export async function proxyRig(stack: Stack): Promise<ProxyRig> {
  const t = await provisionBank(stack);
  const dir = await tmpDir();
  const bin = await buildBin(path.join(dir, 'arbiter.js'));
  return {
    stack,
    t,
    agent: verdictAs(stack, t.agentKey, t.id),
    dir,
    bin,
    env: { ARBITER_API_KEY: t.agentKey, ARBITER_VERDICT_URL: stack.verdict.url },
  };
}

let dir: string | undefined;
/** One temporary folder per test file. */
export async function tmpDir(): Promise<string> {
  dir ??= await mkdtemp(path.join(os.tmpdir(), 'arbiter-mcp-'));
  return dir;
}

export interface JournalEntry {
  tool: string;
  arguments: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** What the bank executed, in order. */
export async function journal(file: string): Promise<JournalEntry[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JournalEntry);
}

export interface Connected {
  client: Client;
  /** What the proxy wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

const MCP_CLIENT = { name: 'e2e-agent', version: '1.0.0' };

/** The bin as an MCP client launches it: `node arbiter.js mcp-proxy --config <file>` over stdio. */
export async function stdioProxy(bin: string, config: string, env: Record<string, string>): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp-proxy', '--config', config],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
    cwd: root,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(MCP_CLIENT);
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`the proxy did not start: ${(err as Error).message}\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Starts a process and resolves with the URL it prints on stderr as `listening on <url>`. */
async function listening(child: ChildProcess, what: string): Promise<{ url: string; stderr: () => string }> {
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+?\/mcp)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before listening:\n${stderr}`)));
  });
  return { url, stderr: () => stderr };
}

async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

export interface HttpProxy extends Connected {
  url: string;
  /** Stops the proxy (SIGTERM) and resolves with its exit code. */
  stop(): Promise<number | null>;
  /** Another client session on the same proxy. */
  connectAnother(): Promise<Client>;
}

/** `arbiter mcp-proxy --config <file> --http 0` and a Streamable HTTP client of it. */
export async function httpProxy(bin: string, config: string, env: Record<string, string>): Promise<HttpProxy> {
  const child = spawn(process.execPath, [bin, 'mcp-proxy', '--config', config, '--http', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, stderr } = await listening(child, 'the proxy');
  const connect = async () => {
    const client = new Client(MCP_CLIENT);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
  const client = await connect();
  return {
    client,
    url,
    stderr,
    connectAnother: connect,
    close: async () => {
      await client.close();
      await stopChild(child);
    },
    stop: async () => {
      await client.close().catch(() => undefined);
      return stopChild(child);
    },
  };
}

/** The bank over Streamable HTTP, journaling to `journalFile`. */
export async function httpBank(journalFile: string): Promise<{ url: string; stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, [BANK_SERVER, '--http', '0'], {
    env: { PATH: process.env.PATH ?? '', BANK_JOURNAL: journalFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { url } = await listening(child, 'the bank');
  return { url, stop: () => stopChild(child) };
}

/** The text of a tool result. */
export const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
