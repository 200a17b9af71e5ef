#!/usr/bin/env node
// A pretend bank as an MCP server, to put Arbiter in front of (docs/agents.md "Five minutes: Arbiter
// in front of an MCP server"). Plain JavaScript on the MCP SDK, so `node bank-server.mjs` runs it
// without a build. Accounts live in memory.
//
//   node examples/mcp/bank-server.mjs               # over stdio (what arbiter-mcp.yaml starts)
//   node examples/mcp/bank-server.mjs --http 8931   # over Streamable HTTP at http://127.0.0.1:8931/mcp
//
// BANK_JOURNAL=<file>: every tool call the bank executes is appended there as one JSON line
// {tool, arguments, meta}, `meta` being the request's _meta as the bank received it (behind the proxy:
// the signed verdict in "arbiter/verdict"). The end-to-end tests read it to see what reached the bank.
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const accounts = new Map([
  ['acct-1', 25_000],
  ['acct-2', 1_200],
  ['acct-3', 0],
]);

const journal = (tool, args, extra) => {
  if (process.env.BANK_JOURNAL)
    appendFileSync(process.env.BANK_JOURNAL, `${JSON.stringify({ tool, arguments: args, meta: extra._meta ?? {} })}\n`);
};
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const failure = (t) => ({ isError: true, ...text(t) });

function bank() {
  const server = new McpServer({ name: 'bank', version: '1.0.0' });
  server.registerTool(
    'balance',
    { description: 'The balance of an account', inputSchema: { account: z.string() }, annotations: { readOnlyHint: true } },
    async (args, extra) => {
      journal('balance', args, extra);
      if (!accounts.has(args.account)) return failure(`no account ${args.account}`);
      return text(`${args.account}: ${accounts.get(args.account)} EUR`);
    },
  );
  server.registerTool(
    'transfer',
    {
      description: 'Moves money between two accounts',
      inputSchema: { from: z.string(), to: z.string(), amount: z.number().positive(), memo: z.string().optional() },
      annotations: { destructiveHint: true },
    },
    async (args, extra) => {
      journal('transfer', args, extra);
      const balance = accounts.get(args.from);
      if (balance === undefined) return failure(`no account ${args.from}`);
      if (balance < args.amount) return failure(`${args.from} holds ${balance} EUR, less than ${args.amount}`);
      accounts.set(args.from, balance - args.amount);
      accounts.set(args.to, (accounts.get(args.to) ?? 0) + args.amount);
      return text(`transferred ${args.amount} EUR from ${args.from} to ${args.to}`);
    },
  );
  server.registerTool(
    'close_account',
    { description: 'Closes an account', inputSchema: { account: z.string() }, annotations: { destructiveHint: true } },
    async (args, extra) => {
      journal('close_account', args, extra);
      if (!accounts.delete(args.account)) return failure(`no account ${args.account}`);
      return text(`closed ${args.account}`);
    },
  );
  return server;
}

const httpAt = process.argv.indexOf('--http');
if (httpAt < 0) {
  await bank().connect(new StdioServerTransport());
} else {
  // Stateless Streamable HTTP: a server per request, over the one set of accounts.
  const httpServer = http.createServer(async (req, res) => {
    const server = bank();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  httpServer.listen(Number(process.argv[httpAt + 1] ?? 0), '127.0.0.1', () => {
    process.stderr.write(`bank: listening on http://127.0.0.1:${httpServer.address().port}/mcp\n`);
  });
  const stop = () => httpServer.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
