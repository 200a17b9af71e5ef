import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ArbiterError, type GuardClient } from '@arbiter/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createProxyServer, refusalResult } from './proxy';
import { Upstreams } from './upstreams';

const BANK = path.resolve(__dirname, '../../../../examples/mcp/bank-server.mjs');

/**
 * The proxy's server in-process over the SDK's in-memory transport, in front of the real example bank
 * (over stdio), with a verdict client stub answering what each test needs: the outcomes the end-to-end
 * tests cannot provoke on demand.
 */
describe('the proxy server', () => {
  let dir: string;
  let upstreams: Upstreams;
  let client: Client;
  let answer: () => Promise<unknown>;
  let checks = 0;
  const guard = {
    check: () => {
      checks++;
      return answer();
    },
    resolve: async () => ({ operation_status: 'incomplete', required_context: [] }),
    createApproval: async () => ({ id: 'apr-1', status: 'pending', candidate_deciders: [] }),
    getApproval: async () => ({ id: 'apr-1', status: 'pending', candidate_deciders: [] }),
    getConsultation: async () => ({ precedence_trace: [] }),
    getRuleVersion: async () => ({ statement: '' }),
    getConsultationExplanation: async () => ({ explanation: null }),
  } as unknown as GuardClient;
  const journal = async () => (await readFile(path.join(dir, 'journal'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }, CallToolResultSchema) as Promise<CallToolResult>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-proxy-'));
    upstreams = await Upstreams.connect(
      [
        {
          name: 'bank',
          kind: 'stdio',
          command: process.execPath,
          args: [BANK],
          env: { BANK_JOURNAL: path.join(dir, 'journal') },
          cwd: dir,
        },
      ],
      { name: 'test', version: '0' },
    );
    const server = createProxyServer({
      config: { scope: {}, tools: {}, onApproval: 'return', waitSeconds: 1 },
      upstreams,
      guard,
      identity: { name: 'test', version: '0' },
      log: () => undefined,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'agent', version: '0' });
    await client.connect(b);
  });
  afterAll(async () => {
    await client?.close();
    await upstreams?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a verdict it does not know (a tenant-defined one) like a block', async () => {
    answer = async () => ({ verdict: 'escalate', consultation_id: 'cns-1', signed_verdict: 'x.y.z', dominating_rule_id: null });
    const r = await call('transfer', { from: 'acct-1', to: 'acct-2', amount: 1 });
    expect(r).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Arbiter refused the call: the verdict is not an authorisation (verdict escalate, consultation cns-1). The call was not forwarded.',
        },
      ],
      _meta: {
        'arbiter/outcome': 'blocked',
        'arbiter/consultation_id': 'cns-1',
        'arbiter/rule_id': null,
        'arbiter/reason': 'unknown_verdict',
      },
    });
    expect(await journal()).toEqual([]);
  });

  it('puts the explanation of a refusal in _meta, the sentence unchanged', async () => {
    const explanation = { not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 10 }] }] };
    const before = guard.getConsultationExplanation;
    (guard as { getConsultationExplanation: unknown }).getConsultationExplanation = async () => ({
      consultation_id: 'cns-5',
      verdict: 'blocked',
      explanation,
    });
    try {
      answer = async () => ({ verdict: 'blocked', consultation_id: 'cns-5', signed_verdict: 'x.y.z', dominating_rule_id: null });
      const r = await call('transfer', { from: 'acct-1', to: 'acct-2', amount: 100 });
      expect(r.content).toEqual([
        {
          type: 'text',
          text: 'Arbiter refused the call: blocked by rule (verdict blocked, consultation cns-5). The call was not forwarded.',
        },
      ]);
      expect(r._meta).toEqual({
        'arbiter/outcome': 'blocked',
        'arbiter/consultation_id': 'cns-5',
        'arbiter/rule_id': null,
        'arbiter/reason': 'blocked',
        'arbiter/explanation': explanation,
      });
      expect(await journal()).toEqual([]);
    } finally {
      (guard as { getConsultationExplanation: unknown }).getConsultationExplanation = before;
    }
  });

  it('fails closed on a refused key', async () => {
    answer = async () =>
      Promise.reject(
        new ArbiterError({ service: 'verdict', status: 401, code: 'invalid_credentials', message: 'the API key is not valid' }),
      );
    const r = await call('balance', { account: 'acct-1' });
    expect(r.isError).toBe(true);
    expect(r._meta).toEqual({ 'arbiter/outcome': 'unavailable' });
    expect(await journal()).toEqual([]);
  });

  it("passes the upstream's own error result through, with the consultation", async () => {
    answer = async () => ({ verdict: 'observe', consultation_id: 'cns-2', signed_verdict: 'a.b.c' });
    const r = await call('balance', { account: 'acct-404' });
    expect(r).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'no account acct-404' }],
      _meta: { 'arbiter/consultation_id': 'cns-2' },
    });
    expect((await journal()).map((l) => JSON.parse(l).meta)).toEqual([{ 'arbiter/verdict': 'a.b.c', 'arbiter/consultation_id': 'cns-2' }]);
  });

  it('refuses arguments the tool\'s input schema refuses before any check: "5000" is no amount the rules can judge', async () => {
    answer = async () => ({ verdict: 'allowed', consultation_id: 'cns-3', signed_verdict: 'a.b.c' });
    const before = checks;
    const r = await call('transfer', { from: 'acct-1', to: 'acct-2', amount: '5000' });
    expect(r).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: "Arbiter refused the call before checking it: arguments.amount must be number (the tool's input schema). The call was not forwarded; call again with arguments the tool's input schema accepts.",
        },
      ],
      _meta: { 'arbiter/outcome': 'invalid_arguments' },
    });
    expect(checks).toBe(before);
    expect(await journal()).toHaveLength(1);
  });

  it("forwards the client's _meta but nothing of it in the arbiter/ namespace", async () => {
    answer = async () => ({ verdict: 'allowed', consultation_id: 'cns-4', signed_verdict: 'd.e.f' });
    await client.callTool(
      {
        name: 'balance',
        arguments: { account: 'acct-1' },
        _meta: { 'arbiter/approval_id': 'apr-forged', 'Arbiter/Verdict': 'x', trace: 't-1' },
      },
      CallToolResultSchema,
    );
    const lines = await journal();
    expect(JSON.parse(lines[lines.length - 1]).meta).toEqual({
      trace: 't-1',
      'arbiter/verdict': 'd.e.f',
      'arbiter/consultation_id': 'cns-4',
    });
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(call('bank.balance', {})).rejects.toThrow(/Unknown tool: bank\.balance/);
  });
});

describe(refusalResult.name, () => {
  it('carries where each window stood on a refusal a budget decided, and nothing of the kind otherwise', () => {
    const limits = [{ rule_id: 'rul-b', key: '{}', window: '1h', used_before: 50, used_after: 50, max: 50 }];
    const base = {
      kind: 'blocked',
      verdict: 'blocked',
      consultationId: 'cns-1',
      ruleId: 'rul-b',
      statement: null,
      reason: 'blocked',
    } as const;
    expect(refusalResult({ ...base, limits })._meta).toMatchObject({ 'arbiter/rule_id': 'rul-b', 'arbiter/limits': limits });
    expect(refusalResult(base)._meta).not.toHaveProperty('arbiter/limits');
  });
});
