// Serving the proxy: over stdio (one client, the process that started it) or Streamable HTTP (one MCP
// session per client, each with its own server over the shared upstreams).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from './loopback';

/** Serves one client over a pair of streams until the input ends, the transport closes, or `stop`. */
export async function serveStdio(server: Server, stdin: Readable, stdout: Writable, stop: AbortSignal): Promise<void> {
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = chain(server.onclose, resolve);
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    if (stop.aborted) resolve();
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}

export interface HttpProxy {
  url: string;
  /** Resolves once the server has stopped (after `stop` aborted). */
  done: Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;

export interface HttpOptions {
  host: string;
  port: number;
  stop: AbortSignal;
  log: (line: string) => void;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
}

/**
 * Serves Streamable HTTP at `http://<host>:<port>/mcp`. Whoever it answers acts with the proxy's API
 * key, so it answers only (docs/agents.md "Serving"): requests with the bearer token when it has one;
 * bound to loopback, requests whose Host is a loopback name (DNS rebinding); and requests from a web
 * page (an Origin header) only when that page is on loopback too (bound to loopback) or is the
 * proxy's own origin, as the MCP transport requires of servers.
 */
export async function serveHttp(newServer: () => Server, opts: HttpOptions): Promise<HttpProxy> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const loopbackOnly = isLoopbackHost(opts.host);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return jsonError(res, 404, -32000, 'Not found: the MCP endpoint is /mcp');
    if (opts.token !== undefined && !bearerMatches(req.headers.authorization, opts.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return jsonError(res, 401, -32001, 'Unauthorized: this proxy needs Authorization: Bearer <token>');
    }
    if (loopbackOnly && !isLoopbackHost(hostnameOf(req.headers.host)))
      return jsonError(res, 403, -32000, 'Forbidden: this proxy answers loopback hosts only');
    if (!originAllowed(req.headers.origin, req.headers.host, loopbackOnly))
      return jsonError(res, 403, -32000, 'Forbidden: a web page of another origin may not use this proxy');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!existing) return jsonError(res, sessionId ? 404 : 400, -32000, sessionId ? 'Session not found' : 'Bad Request: no session id');
      return existing.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (err) {
      return jsonError(res, (err as { status?: number }).status ?? 400, -32700, `Parse error: ${(err as Error).message}`);
    }
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId) return jsonError(res, 404, -32001, 'Session not found');
    if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'Bad Request: no session id, and not an initialize request');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        opts.log(`session ${id} opened`);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        opts.log(`session ${id} closed`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await newServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.log(`http: ${(err as Error).message}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(opts.port, opts.host, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const done = new Promise<void>((resolve) => {
    const close = async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    };
    if (opts.stop.aborted) void close();
    else opts.stop.addEventListener('abort', () => void close(), { once: true });
  });
  return { url: `http://${host}:${address.port}/mcp`, done };
}

/** No Origin (not a browser) passes; a browser's must be loopback (bound to loopback) or the proxy's own. */
function originAllowed(origin: string | undefined, host: string | undefined, loopbackOnly: boolean): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return loopbackOnly ? isLoopbackHost(url.hostname) : url.host === (host ?? '').toLowerCase();
}

/** Constant-time comparison (of digests, so lengths do not show). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/i.exec(header ?? '');
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return m !== null && timingSafeEqual(digest(m[1]), digest(token));
}

function hostnameOf(host: string | undefined): string {
  if (!host) return '';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('the body is larger than 4 MiB'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const chain = (first: (() => void) | undefined, then: () => void) => () => {
  first?.();
  then();
};
