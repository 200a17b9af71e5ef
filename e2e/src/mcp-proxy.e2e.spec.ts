import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { verifyVerdict, type VerdictClient } from '@arbiter/client';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { root, runBin } from './cli-harness';
import {
  BANK_SERVER,
  EXAMPLE_DIR,
  httpBank,
  httpProxy,
  journal,
  proxyRig,
  stdioProxy,
  textOf,
  type BankTenant,
  type Connected,
  type HttpProxy,
} from './mcp-harness';
import { verdictAs } from './sdk-harness';
import { backdateApproval } from './verdict-harness';
import { startStack, type Stack } from './stack';

/**
 * `arbiter mcp-proxy` against the real stack (docs/agents.md): the built bin serving a real MCP SDK
 * client over stdio and over Streamable HTTP, in front of the example bank server started over stdio
 * by the proxy or reached over HTTP. The bank journals every call it executes, so each test sees
 * whether a call reached it.
 */
describe('arbiter mcp-proxy', () => {
  let stack: Stack;
  let t: BankTenant;
  let agent: VerdictClient;
  let finance: VerdictClient;
  let bin: string;
  let dir: string;
  let env: Record<string, string>;

  const file = (name: string) => path.join(dir, name);
  const config = async (name: string, text: string) => {
    await writeFile(file(name), text);
    return file(name);
  };
  /** The example's mapping, with the bank started from the example folder and journaling to `journalFile`. */
  const bankConfig = (journalFile: string, extra = '') => `upstreams:
  - name: bank
    command: node
    args: [${BANK_SERVER}]
    env: {BANK_JOURNAL: ${journalFile}}
scope: {region: eu}
tools:
  bank.transfer: {action: bank.transfer, resource: "acct:\${args.from}"}
  bank.balance: {action: bank.balance, resource: "acct:\${args.account}"}
  bank.close_account: {action: bank.close_account, resource: "acct:\${args.account}"}
${extra}`;
  const call = (c: Client, name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void) =>
    c.callTool({ name, arguments: args }, CallToolResultSchema, {
      timeout: 110_000,
      resetTimeoutOnProgress: true,
      ...(onprogress ? { onprogress } : {}),
    }) as Promise<CallToolResult>;
  const meta = (r: CallToolResult) => (r._meta ?? {}) as Record<string, unknown>;

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    ({ t, agent, dir, bin, env } = await proxyRig(stack));
    finance = verdictAs(stack, t.financeKey, t.id);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('over stdio, one upstream over stdio, on_approval: return', () => {
    let proxy: Connected;
    const journalFile = () => file('stdio-bank.jsonl');

    beforeAll(async () => {
      proxy = await stdioProxy(bin, await config('stdio.yaml', bankConfig(journalFile())), env);
    });
    afterAll(async () => proxy?.close());

    it("lists the bank's tools under their own names, schemas unchanged", async () => {
      const direct = new Client({ name: 'direct', version: '1' });
      await direct.connect(new StdioClientTransport({ command: process.execPath, args: [BANK_SERVER] }));
      const expected = (await direct.listTools()).tools;
      await direct.close();
      const { tools } = await proxy.client.listTools();
      expect(tools.map((x) => x.name)).toEqual(['balance', 'transfer', 'close_account']);
      expect(tools).toEqual(expected);
    });

    it("forwards an allowed call with the signed verdict in _meta, which verifies against the tenant's key set", async () => {
      const r = await call(proxy.client, 'balance', { account: 'acct-1' });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toBe('acct-1: 25000 EUR');
      const consultationId = meta(r)['arbiter/consultation_id'] as string;
      expect(consultationId).toMatch(/^cns-/);
      const [entry] = await journal(journalFile());
      expect(entry).toMatchObject({
        tool: 'balance',
        arguments: { account: 'acct-1' },
        meta: { 'arbiter/consultation_id': consultationId },
      });
      const verified = await verifyVerdict(entry.meta['arbiter/verdict'] as string, {
        jwksUrl: await agent.jwksUrl(t.slug),
        tenantId: t.id,
      });
      expect(verified.claims).toMatchObject({
        verdict: 'allowed',
        action: 'bank.balance',
        resource: 'acct:acct-1',
        tenant_id: t.id,
        jti: consultationId,
        scope: { region: 'eu' },
        parameters: { account: 'acct-1' },
      });
      expect((await agent.getConsultation(consultationId)).signed_verdict).toBe(entry.meta['arbiter/verdict']);
    });

    it('does not forward a blocked call: an error result with the rule and the consultation', async () => {
      const before = (await journal(journalFile())).length;
      const r = await call(proxy.client, 'transfer', { from: 'acct-1', to: 'offshore-7', amount: 50 });
      expect(r.isError).toBe(true);
      const consultationId = meta(r)['arbiter/consultation_id'] as string;
      const record = await agent.getConsultation(consultationId);
      expect(record.verdict).toBe('blocked');
      expect(textOf(r)).toBe(
        `Arbiter refused the call: blocked by rule ${record.dominating_rule_id}: "No transfers to offshore accounts" (verdict blocked, consultation ${consultationId}). The call was not forwarded.`,
      );
      expect(meta(r)).toMatchObject({ 'arbiter/outcome': 'blocked', 'arbiter/rule_id': record.dominating_rule_id });
      // Asked of the gateway for this refusal (docs/agents.md): a starts_with row no change of the arguments can make false.
      expect(meta(r)['arbiter/explanation']).toEqual({
        not_invertible: [{ field: 'to', op: 'starts_with', rule_id: record.dominating_rule_id }],
        to_allow: [],
      });
      expect(meta(r)['arbiter/explanation']).toEqual((await agent.getConsultationExplanation(consultationId)).explanation);
      expect(await journal(journalFile())).toHaveLength(before);
    });

    it('answers approval_required with the pending approval (the same one on a retry), and does not forward', async () => {
      const before = (await journal(journalFile())).length;
      const r = await call(proxy.client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 5000 });
      expect(r.isError).toBe(true);
      const approvalId = meta(r)['arbiter/approval_id'] as string;
      expect(approvalId).toMatch(/^apr-/);
      expect(textOf(r)).toContain(`approval ${approvalId} is pending`);
      const approval = await finance.getApproval(approvalId);
      expect(approval).toMatchObject({
        status: 'pending',
        intended_action: 'bank.transfer',
        intended_resource: 'acct:acct-1',
        consultation_id: meta(r)['arbiter/consultation_id'],
      });
      const retry = await call(proxy.client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 5000 });
      expect(meta(retry)['arbiter/approval_id']).toBe(approvalId);
      expect(await journal(journalFile())).toHaveLength(before);
    });

    it('refuses the retry of a call whose approval expired, naming the expiry, and files a new approval on the next one', async () => {
      const before = (await journal(journalFile())).length;
      const args = { from: 'acct-1', to: 'acct-2', amount: 7000 };
      const first = await call(proxy.client, 'transfer', args);
      const approvalId = meta(first)['arbiter/approval_id'] as string;
      expect(approvalId).toMatch(/^apr-/);
      // The rule's approval_expires_after (or APPROVAL_TTL_SECONDS) passing, written into the test database.
      await backdateApproval(stack, approvalId, 'expires_at');
      const retry = await call(proxy.client, 'transfer', args);
      expect(retry.isError).toBe(true);
      expect(textOf(retry)).toContain(`the approval expired before it was decided (approval ${approvalId})`);
      expect(meta(retry)['arbiter/approval_id']).toBe(approvalId);
      const again = await call(proxy.client, 'transfer', args);
      expect(meta(again)['arbiter/approval_id']).not.toBe(approvalId);
      expect(textOf(again)).toContain('is pending');
      expect(await journal(journalFile())).toHaveLength(before);
    });

    it('names the context the rules need and the arguments a resource template needs, and does not forward', async () => {
      const before = (await journal(journalFile())).length;
      const closing = await call(proxy.client, 'close_account', { account: 'acct-3' });
      expect(closing.isError).toBe(true);
      expect(textOf(closing)).toMatch(/^Arbiter cannot decide the call: the rules need identity\.checked\b.*The call was not forwarded/);
      expect(meta(closing)['arbiter/required_context']).toEqual([
        expect.objectContaining({ field: 'identity.checked', source_requirement: 'verified' }),
      ]);
      // The agent's own say-so is not a verified identity check.
      const claimed = await call(proxy.client, 'close_account', { account: 'acct-3', identity: { checked: true } });
      expect(meta(claimed)['arbiter/required_context']).toEqual([
        expect.objectContaining({ field: 'identity.checked', problems: ['not_verified'] }),
      ]);
      const noFrom = await call(proxy.client, 'transfer', { to: 'acct-2', amount: 5 });
      expect(noFrom.isError).toBe(true);
      expect(textOf(noFrom)).toContain('the rules need from (absent; the proxy\'s resource "acct:${args.from}" of bank.transfer reads it)');
      expect(await journal(journalFile())).toHaveLength(before);
    });

    it('logs on stderr only: stdout carries MCP alone', () => {
      expect(proxy.stderr()).toContain('arbiter mcp-proxy: serving over stdio; upstreams: bank');
      expect(proxy.stderr()).toMatch(/bank\.transfer: blocked \(cns-/);
    });
  });

  describe('fails closed', () => {
    it('never forwards a call when the verdict gateway cannot be reached', async () => {
      const journalFile = file('down-bank.jsonl');
      const proxy = await stdioProxy(bin, await config('down.yaml', `verdict_url: http://127.0.0.1:1\n${bankConfig(journalFile)}`), env);
      try {
        const r = await call(proxy.client, 'balance', { account: 'acct-1' });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/^Arbiter could not be reached or refused the request \(.+\)\. The call was not forwarded\.$/);
        expect(meta(r)).toEqual({ 'arbiter/outcome': 'unavailable' });
      } finally {
        await proxy.close();
      }
      expect(await journal(journalFile)).toEqual([]);
    });

    it('never forwards a call when the gateway answers 503 (its registry down)', async () => {
      const down = http.createServer((_req, res) =>
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'registry_unavailable', message: 'the registry cannot be reached' } })),
      );
      await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
      const journalFile = file('503-bank.jsonl');
      const proxy = await stdioProxy(
        bin,
        await config(
          '503.yaml',
          `verdict_url: http://127.0.0.1:${(down.address() as AddressInfo).port}\ntenant: ${t.id}\n${bankConfig(journalFile)}`,
        ),
        env,
      );
      try {
        const r = await call(proxy.client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 10 });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/^Arbiter could not be reached or refused the request \(.*503.*\)\. The call was not forwarded\.$/);
      } finally {
        await proxy.close();
        down.close();
      }
      expect(await journal(journalFile)).toEqual([]);
    });

    it('does not start on a bad configuration or without its API key: exit 2 naming the key', async () => {
      const bad = await runBin(
        bin,
        ['mcp-proxy', '--config', await config('bad.yaml', 'upstreams:\n  - {name: bank, command: node}\non_approval: later\n')],
        env,
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe(
        `arbiter: the MCP proxy configuration is not valid (1 problem):\n${file('bad.yaml')}:3:14: on_approval: on_approval is return (answer with the pending approval) or wait (wait for its decision)\n`,
      );
      const noKey = await runBin(
        bin,
        [
          'mcp-proxy',
          '--config',
          await config('nokey.yaml', 'api_key_env: BANK_AGENT_KEY\nupstreams:\n  - {name: bank, command: node, args: [x.mjs]}\n'),
        ],
        env,
      );
      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toContain('api_key_env: the environment variable BANK_AGENT_KEY holds no API key');
      const noUpstream = await runBin(
        bin,
        ['mcp-proxy', '--config', await config('noup.yaml', 'upstreams:\n  - {name: bank, url: "http://127.0.0.1:1/mcp"}\n')],
        env,
      );
      expect(noUpstream.code).toBe(2);
      expect(noUpstream.stderr).toMatch(/^arbiter: cannot connect to upstream bank \(http:\/\/127\.0\.0\.1:1\/mcp\): /);
    });
  });

  describe('over Streamable HTTP, two upstreams (stdio and HTTP), on_approval: wait', () => {
    let proxy: HttpProxy;
    let branch: { url: string; stop(): Promise<unknown> };
    const bankJournal = () => file('http-bank.jsonl');
    const branchJournal = () => file('http-branch.jsonl');

    beforeAll(async () => {
      branch = await httpBank(branchJournal());
      const text = bankConfig(bankJournal(), 'on_approval: wait\nwait_seconds: 100\n').replace(
        'scope: {region: eu}',
        `  - {name: branch, url: "${branch.url}"}\nscope: {region: eu}`,
      );
      proxy = await httpProxy(bin, await config('http.yaml', text), env);
    });
    afterAll(async () => {
      await proxy?.close();
      await branch?.stop();
    });

    it("lists both upstreams' tools as <upstream>.<tool>", async () => {
      const { tools } = await proxy.client.listTools();
      expect(tools.map((x) => x.name)).toEqual([
        'bank.balance',
        'bank.transfer',
        'bank.close_account',
        'branch.balance',
        'branch.transfer',
        'branch.close_account',
      ]);
    });

    it('forwards an allowed call to the HTTP upstream with the signed verdict (action mcp.<upstream>.<tool> by default)', async () => {
      const r = await call(proxy.client, 'branch.balance', { account: 'acct-2' });
      expect(textOf(r)).toBe('acct-2: 1200 EUR');
      const [entry] = await journal(branchJournal());
      const verified = await verifyVerdict(entry.meta['arbiter/verdict'] as string, {
        jwksUrl: await agent.jwksUrl(t.slug),
        tenantId: t.id,
      });
      expect(verified.claims).toMatchObject({
        verdict: 'allowed',
        action: 'mcp.branch.balance',
        resource: 'mcp:branch/balance',
        jti: meta(r)['arbiter/consultation_id'],
      });
      expect(await journal(bankJournal())).toEqual([]);
    });

    it('does not forward a blocked call', async () => {
      const r = await call(proxy.client, 'bank.transfer', { from: 'acct-1', to: 'offshore-1', amount: 5 });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('"No transfers to offshore accounts"');
      expect(await journal(bankJournal())).toEqual([]);
    });

    it('waits for the approval with progress notifications; once approved, exactly that call goes through, once', async () => {
      const args = { from: 'acct-1', to: 'acct-2', amount: 5000 };
      const approvalsSeen: string[] = [];
      const progress: Progress[] = [];
      let decided: Promise<unknown> | undefined;
      const r = await call(proxy.client, 'bank.transfer', args, (p) => {
        progress.push(p);
        const id = /approval (apr-\S+):/.exec(p.message ?? '')?.[1];
        if (id && !approvalsSeen.includes(id)) approvalsSeen.push(id);
        // The decider approves while the client waits.
        if (id && !decided) decided = finance.decideApproval(id, { decision: 'approve', decider_notes: 'fine' });
      });
      await decided;
      expect(approvalsSeen).toHaveLength(1);
      expect(progress[0].message).toMatch(new RegExp(`^Waiting for Arbiter approval ${approvalsSeen[0]}: pending \\(\\d+ s left\\)$`));
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toBe('transferred 5000 EUR from acct-1 to acct-2');
      expect(meta(r)['arbiter/approval_id']).toBe(approvalsSeen[0]);
      const transfers = (await journal(bankJournal())).filter((e) => e.tool === 'transfer');
      expect(transfers).toHaveLength(1);
      expect(transfers[0].arguments).toEqual(args);
      expect(transfers[0].meta).toMatchObject({
        'arbiter/consultation_id': meta(r)['arbiter/consultation_id'],
        'arbiter/approval_id': approvalsSeen[0],
      });

      // The same call again: the approval was used; a new one is asked for, and rejected this time.
      const again: string[] = [];
      let rejected: Promise<unknown> | undefined;
      const second = await call(proxy.client, 'bank.transfer', args, (p) => {
        const id = /approval (apr-\S+):/.exec(p.message ?? '')?.[1];
        if (id && !again.includes(id)) again.push(id);
        if (id && !rejected) rejected = finance.decideApproval(id, { decision: 'reject', decider_notes: 'not twice' });
      });
      await rejected;
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(approvalsSeen[0]);
      expect(second.isError).toBe(true);
      expect(textOf(second)).toContain(`the approval was rejected (approval ${again[0]})`);
      expect(meta(second)).toMatchObject({
        'arbiter/outcome': 'blocked',
        'arbiter/reason': 'approval_rejected',
        'arbiter/approval_id': again[0],
      });
      expect((await journal(bankJournal())).filter((e) => e.tool === 'transfer')).toHaveLength(1);
    });

    it('serves several client sessions, and stops on SIGTERM with exit 0', async () => {
      const other = await proxy.connectAnother();
      expect(textOf(await call(other, 'branch.balance', { account: 'acct-3' }))).toBe('acct-3: 0 EUR');
      await other.close();
      expect(await proxy.stop()).toBe(0);
    });
  });

  describe('docs/agents.md, "Five minutes: Arbiter in front of an MCP server"', () => {
    const doc = readFileSync(path.join(root, 'docs/agents.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('## Five minutes: Arbiter in front of an MCP server'),
      doc.indexOf("## The proxy's configuration"),
    );

    it('shows examples/mcp/arbiter-mcp.yaml and examples/mcp/rules.yaml as they are', () => {
      expect(section).toContain(`\`\`\`yaml\n${readFileSync(path.join(EXAMPLE_DIR, 'arbiter-mcp.yaml'), 'utf8')}\`\`\``);
      expect(section).toContain(`\`\`\`yaml\n${readFileSync(path.join(EXAMPLE_DIR, 'rules.yaml'), 'utf8')}\`\`\``);
    });

    it('runs as written: the command of the section, then the calls of its table with the answers it quotes', async () => {
      const line = /^(?:\S+=\S+ )*arbiter (mcp-proxy [^#\n]*?)\s*(?:#.*)?$/m.exec(section);
      expect(line).not.toBeNull();
      const argv = line![1].split(/\s+/);
      expect(argv).toEqual(['mcp-proxy', '--config', 'examples/mcp/arbiter-mcp.yaml']);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bin, ...argv],
        env: { PATH: process.env.PATH ?? '', ...env },
        cwd: root,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'five-minutes', version: '1' });
      await client.connect(transport);
      try {
        // The texts the section quotes, `…` standing for ids.
        const quoted = (start: string) => {
          const text = new RegExp('`(' + start + '[^`]*)`').exec(section)?.[1];
          expect(text).toBeDefined();
          return new RegExp(`^${text!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.+?')}`);
        };
        const balance = await call(client, 'balance', { account: 'acct-1' });
        expect(textOf(balance)).toBe('acct-1: 25000 EUR');
        expect(section).toContain(`\`${textOf(balance)}\``);
        const offshore = await call(client, 'transfer', { from: 'acct-1', to: 'offshore-7', amount: 50 });
        expect(textOf(offshore)).toMatch(quoted('Arbiter refused the call'));
        const big = await call(client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 5000 });
        expect(big.isError).toBe(true);
        expect(textOf(big)).toMatch(quoted('Arbiter needs an approval'));
        await finance.decideApproval(meta(big)['arbiter/approval_id'] as string, { decision: 'approve' });
        const again = await call(client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 5000 });
        expect(textOf(again)).toBe('transferred 5000 EUR from acct-1 to acct-2');
        // The retry was allowed by that approval: the result says which (docs/agents.md "Outcomes").
        expect(meta(again)['arbiter/approval_id']).toBe(meta(big)['arbiter/approval_id']);
        expect((await call(client, 'transfer', { from: 'acct-1', to: 'acct-2', amount: 5000 })).isError).toBe(true);
        for (const args of [{ account: 'acct-3' }, { account: 'acct-3', identity: { checked: true } }]) {
          const closing = await call(client, 'close_account', args);
          expect(textOf(closing)).toMatch(/^Arbiter cannot decide the call: the rules need identity\.checked /);
        }
      } finally {
        await client.close();
      }
    });
  });
});
