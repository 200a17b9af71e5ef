import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { RunContext, tool as agentsTool } from '@openai/agents';
import { tool as aiTool } from 'ai';
import { z } from 'zod';
import {
  createRegistryClient,
  createVerdictClient,
  guardAgentsTool,
  guardAiTool,
  verifyVerdict,
  type GuardOutcome,
  type ToolRefusal,
  type VerdictClient,
} from '@arbiter/client';
import { provisionTenant, SCOPE_SCHEMA, verdictAs, type SdkTenant } from './sdk-harness';
import { startStack, type Stack } from './stack';

/**
 * The SDK's framework adapters against the real stack (docs/agents.md "Framework adapters"): real tools
 * of the Vercel AI SDK and of the OpenAI Agents SDK, wrapped with guardAiTool / guardAgentsTool and
 * called directly, as the frameworks call them (no model). Each tool records its runs, so every test
 * sees whether the tool ran.
 */
describe('guardTool adapters', () => {
  let stack: Stack;
  let t: SdkTenant;
  let agent: VerdictClient;
  let cfo: VerdictClient;
  const options = { toolCallId: 'call-1', messages: [] };
  const scope = { region: 'eu' };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    t = await provisionTenant(stack, 'guard');
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    const bank = await reg.createScope({ name: 'bank', selector: { region: 'eu' } });
    await reg.createRule(bank.id, {
      directive: 'No transfers to offshore accounts',
      severity: 'MANDATORY',
      applies_to: { actions: ['bank.transfer'] },
      conditions: [{ field: 'to', op: 'starts_with', value: 'offshore-' }],
    });
    await reg.createRule(bank.id, {
      directive: 'Transfers above 1,000 EUR need approval from the CFO',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['bank.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      deciders: ['role-cfo'],
    });
    await reg.createRule(bank.id, {
      directive: 'An account is closed only after a verified identity check',
      severity: 'MANDATORY',
      applies_to: { actions: ['bank.close_account'] },
      conditions: [{ field: 'identity.checked', op: 'neq', value: true }],
      requires: [{ field: 'identity.checked', type: 'boolean', source_requirement: 'verified', reason: 'identity check' }],
    });
    agent = verdictAs(stack, t.agentKey, t.id);
    cfo = verdictAs(stack, t.cfoKey, t.id);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A transfer tool of each framework, recording what it executed. */
  function transferTools() {
    const runs: Array<{ from: string; to: string; amount: number }> = [];
    const schema = z.object({ from: z.string(), to: z.string(), amount: z.number() });
    const execute = async (i: { from: string; to: string; amount: number }) => {
      runs.push(i);
      return `transferred ${i.amount} EUR from ${i.from} to ${i.to}`;
    };
    return {
      runs,
      ai: aiTool({ description: 'Move money between accounts', inputSchema: schema, execute }),
      agents: agentsTool({ name: 'transfer', description: 'Move money between accounts', parameters: schema, execute }),
    };
  }
  const mapping = { action: 'bank.transfer', resource: (i: { from: string }) => `acct:${i.from}`, scope };

  it("ai: runs an allowed call once, and its signed verdict verifies against the tenant's key set", async () => {
    const tools = transferTools();
    const outcomes: GuardOutcome[] = [];
    const guarded = guardAiTool(agent, tools.ai, { name: 'transfer', ...mapping, onOutcome: (o) => outcomes.push(o) });
    const input = { from: 'acct-1', to: 'acct-2', amount: 50 };
    expect(await guarded.execute!(input, options)).toBe('transferred 50 EUR from acct-1 to acct-2');
    expect(tools.runs).toEqual([input]);
    const [allowed] = outcomes;
    if (allowed.kind !== 'allowed') throw new Error(`expected allowed, got ${allowed.kind}`);
    const verified = await verifyVerdict(allowed.signedVerdict, { jwksUrl: await agent.jwksUrl(t.slug), tenantId: t.id });
    expect(verified.claims).toMatchObject({
      verdict: 'allowed',
      action: 'bank.transfer',
      resource: 'acct:acct-1',
      jti: allowed.consultationId,
      parameters: input,
    });
  });

  it("ai: does not run a blocked call; the refusal names the rule's statement and the recorded consultation", async () => {
    const tools = transferTools();
    const out = (await guardAiTool(agent, tools.ai, { name: 'transfer', ...mapping }).execute!(
      { from: 'acct-1', to: 'offshore-7', amount: 50 },
      options,
    )) as unknown as ToolRefusal;
    expect(tools.runs).toEqual([]);
    expect(out).toMatchObject({
      arbiter_refused: true,
      outcome: 'blocked',
      consultation_id: expect.stringMatching(/^cns-/),
      rule_id: expect.stringMatching(/^rul-/),
    });
    expect(out.message).toContain('"No transfers to offshore accounts"');
    expect(out.message).toContain(out.consultation_id!);
    expect((await agent.getConsultation(out.consultation_id!)).verdict).toBe('blocked');
    // The refusal carries the explanation the gateway computes for the consultation (asked only now).
    expect(out.explanation).toEqual((await agent.getConsultationExplanation(out.consultation_id!)).explanation);
    expect(out.explanation?.not_invertible).toEqual([expect.objectContaining({ field: 'to', op: 'starts_with' })]);
  });

  it('agents: returns the pending approval (on_approval return) and does not run; a retry gets the same approval', async () => {
    const tools = transferTools();
    const guarded = guardAgentsTool(agent, tools.agents, {
      ...mapping,
      resource: (i: Record<string, unknown>) => `acct:${String(i.from)}`,
    });
    const input = JSON.stringify({ from: 'acct-1', to: 'acct-2', amount: 2000 });
    const first = (await guarded.invoke(new RunContext({}), input)) as string;
    const id = /approval (apr-\S+) is pending/.exec(first)?.[1];
    expect(id).toBeDefined();
    expect(first).toContain('may be decided by one of role-cfo');
    expect(await guarded.invoke(new RunContext({}), input)).toContain(`approval ${id} is pending`);
    expect(tools.runs).toEqual([]);
    expect((await agent.getApproval(id!)).status).toBe('pending');
  });

  it('agents: identical calls made at the same time (a batch, parallel retries) get one approval between them', async () => {
    const tools = transferTools();
    const guarded = guardAgentsTool(agent, tools.agents, {
      ...mapping,
      resource: (i: Record<string, unknown>) => `acct:${String(i.from)}`,
    });
    // The same operation four times, one with its members in another order (the same canonical JSON).
    const inputs = [
      ...Array.from({ length: 3 }, () => JSON.stringify({ from: 'acct-9', to: 'acct-10', amount: 2500 })),
      JSON.stringify({ amount: 2500, to: 'acct-10', from: 'acct-9' }),
    ];
    const answers = (await Promise.all(inputs.map((i) => guarded.invoke(new RunContext({}), i)))) as string[];
    const ids = answers.map((a) => /approval (apr-\S+) is pending/.exec(a)?.[1]);
    expect(ids[0]).toBeDefined();
    expect(new Set(ids)).toEqual(new Set([ids[0]]));
    expect(tools.runs).toEqual([]);
    // Another operation made alongside gets its own.
    const [same, other] = (await Promise.all([
      guarded.invoke(new RunContext({}), inputs[0]),
      guarded.invoke(new RunContext({}), JSON.stringify({ from: 'acct-9', to: 'acct-10', amount: 2600 })),
    ])) as string[];
    expect(same).toContain(`approval ${ids[0]} is pending`);
    expect(/approval (apr-\S+) is pending/.exec(other)?.[1]).not.toBe(ids[0]);
  });

  it('agents: waits for the approval; decided while it waits, exactly that call runs, once', async () => {
    const tools = transferTools();
    let decided: Promise<unknown> | undefined;
    const seen: string[] = [];
    const guarded = guardAgentsTool(agent, tools.agents, {
      ...mapping,
      resource: (i: Record<string, unknown>) => `acct:${String(i.from)}`,
      onApproval: 'wait',
      waitSeconds: 60,
      pollMs: 200,
      onProgress: (p) => {
        seen.push(p.status);
        decided ??= cfo.decideApproval(p.approvalId, { decision: 'approve', decider_notes: 'ok once' });
      },
    });
    const input = { from: 'acct-3', to: 'acct-4', amount: 3000 };
    expect(await guarded.invoke(new RunContext({}), JSON.stringify(input))).toBe('transferred 3000 EUR from acct-3 to acct-4');
    await decided;
    expect(seen[0]).toBe('pending');
    expect(seen.at(-1)).toBe('approved');
    expect(tools.runs).toEqual([input]);

    // The approval was used: the same call again needs another one (and does not run meanwhile).
    const again = guardAgentsTool(agent, tools.agents, { ...mapping, resource: (i: Record<string, unknown>) => `acct:${String(i.from)}` });
    expect(await again.invoke(new RunContext({}), JSON.stringify(input))).toMatch(/^Arbiter needs an approval/);
    expect(tools.runs).toHaveLength(1);
  });

  it('names the context the rules need (a verified identity check) and does not run', async () => {
    const runs: unknown[] = [];
    const close = aiTool({
      description: 'Close an account',
      inputSchema: z.object({ account: z.string(), identity: z.object({ checked: z.boolean() }) }),
      execute: async (i) => void runs.push(i),
    });
    const out = (await guardAiTool(agent, close, { name: 'close_account', action: 'bank.close_account', scope }).execute!(
      { account: 'acct-9', identity: { checked: true } },
      options,
    )) as unknown as ToolRefusal;
    expect(out).toMatchObject({ arbiter_refused: true, outcome: 'insufficient_context', missing_fields: ['identity.checked'] });
    expect(runs).toEqual([]);
  });

  it('does not let the arguments choose a scope field the mapping leaves unset (an override for the sandbox lifts nothing in production)', async () => {
    // The tenant gains a scope field `env`; the identity rule is lifted for the sandbox only. The mapping says
    // region eu and no env: an argument `env` (or an object `scope`) must not make the decision one of the sandbox.
    const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    await admin.updateTenant(t.id, {
      settings: { scope_schema: { fields: { ...SCOPE_SCHEMA.fields, env: { allowed_values: ['prod', 'sandbox'] } } } },
    });
    const bank = (await admin.listScopes({ limit: 100 })).items.find((x) => x.name === 'bank')!;
    const identityRule = (await admin.listRules(bank.id)).find((r) => r.directive.startsWith('An account is closed'))!;
    const override = await admin.createOverride(bank.id, {
      target_id: identityRule.id,
      override_type: 'permanent',
      justification: 'sandbox accounts are closed without an identity check',
      applies_to_scope: { env: 'sandbox' },
    });
    const runs: unknown[] = [];
    const close = aiTool({
      description: 'Close an account',
      inputSchema: z.object({ account: z.string() }).passthrough(),
      execute: async (i) => void runs.push(i),
    });
    const guarded = guardAiTool(agent, close, { name: 'close_account', action: 'bank.close_account', scope });
    for (const input of [
      { account: 'acct-3', env: 'sandbox' },
      { account: 'acct-3', scope: { env: 'sandbox' } },
    ]) {
      const out = (await guarded.execute!(input as never, options)) as unknown as ToolRefusal;
      expect(out).toMatchObject({ arbiter_refused: true });
      expect(['unavailable', 'insufficient_context']).toContain(out.outcome);
    }
    const widened = (await guarded.execute!({ account: 'acct-3', env: 'sandbox' } as never, options)) as unknown as ToolRefusal;
    expect(widened.message).toContain('env="sandbox"');
    expect(runs).toEqual([]);
    // The mapping's own scope still reaches the override: a sandbox tool closes the account.
    const sandbox = guardAiTool(agent, close, { name: 'close_account', action: 'bank.close_account', scope: { ...scope, env: 'sandbox' } });
    await sandbox.execute!({ account: 'acct-3' } as never, options);
    expect(runs).toEqual([{ account: 'acct-3' }]);
    await admin.revokeOverride(bank.id, override.id);
  });

  it("agents: with the tool's own parser, the check judges the input as the tool's schema makes it (trimmed, lowercased)", async () => {
    const runs: unknown[] = [];
    const schema = z.object({ from: z.string(), to: z.string().trim().toLowerCase(), amount: z.number() });
    const transfer = agentsTool({
      name: 'transfer',
      description: 'Move money',
      parameters: schema,
      execute: async (i) => void runs.push(i),
    });
    const guarded = guardAgentsTool(agent, transfer, { ...mapping, resource: 'acct:acct-1', parse: (i) => schema.parse(i) });
    for (const to of [' offshore-7', 'OFFSHORE-7'])
      expect(await guarded.invoke(new RunContext({}), JSON.stringify({ from: 'acct-1', to, amount: 50 }))).toMatch(
        /^Arbiter refused the call: blocked by rule/,
      );
    expect(await guarded.invoke(new RunContext({}), JSON.stringify({ from: 'acct-1', to: 7, amount: 50 }))).toBe(
      "Arbiter could not check the call (the tool input does not match the tool's schema). The call was not run.",
    );
    expect(runs).toEqual([]);
    await guarded.invoke(new RunContext({}), JSON.stringify({ from: 'acct-1', to: ' ACCT-2 ', amount: 50 }));
    expect(runs).toEqual([{ from: 'acct-1', to: 'acct-2', amount: 50 }]);
  });

  it('does not run a call whose input has a dotted key: the gateway refuses it (400 naming the key), the refusal says so', async () => {
    const runs: unknown[] = [];
    const pay = aiTool({
      description: 'Pay',
      inputSchema: z.object({ to: z.string() }).passthrough(),
      execute: async (i) => void runs.push(i),
    });
    const out = (await guardAiTool(agent, pay, { name: 'transfer', action: 'bank.transfer', resource: 'acct:acct-1', scope }).execute!(
      { from: 'acct-1', to: 'acct-2', amount: 5000, 'amount.eur': 5 } as never,
      options,
    )) as unknown as ToolRefusal;
    expect(out).toMatchObject({ arbiter_refused: true, outcome: 'unavailable' });
    expect(out.message).toContain('parameters["amount.eur"]: rules address parameters by dot paths');
    expect(runs).toEqual([]);
  });

  it("fails closed: with the gateway unreachable neither framework's tool runs", async () => {
    const tools = transferTools();
    const down = createVerdictClient({ baseUrl: 'http://127.0.0.1:1', apiKey: t.agentKey, tenant: t.id });
    const a = (await guardAiTool(down, tools.ai, { name: 'transfer', ...mapping }).execute!(
      { from: 'acct-1', to: 'acct-2', amount: 1 },
      options,
    )) as unknown as ToolRefusal;
    expect(a).toMatchObject({ arbiter_refused: true, outcome: 'unavailable' });
    const b = await guardAgentsTool(down, tools.agents, { ...mapping, resource: () => 'acct:acct-1', onRefusal: 'throw' })
      .invoke(new RunContext({}), JSON.stringify({ from: 'acct-1', to: 'acct-2', amount: 1 }))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(b).toMatchObject({ name: 'ToolRefusedError', outcome: { kind: 'unavailable' } });
    expect(tools.runs).toEqual([]);
  });

  describe.each(['ai-sdk/agent', 'openai-agents/agent'])('examples/%s.ts, as docs/agents.md runs it (dry run, no model)', (example) => {
    it('provisions (or reuses) the one demo tenant; the allowed call runs, the offshore one is blocked, the large one waits for finance; no key is left', async () => {
      const root = path.resolve(__dirname, '../..');
      const env = {
        ...process.env,
        ARBITER_REGISTRY_URL: stack.registry.url,
        ARBITER_VERDICT_URL: stack.verdict.url,
        ARBITER_ADMIN_KEY: stack.registry.adminKey,
        ARBITER_MODEL: '',
        OPENAI_API_KEY: '',
      };
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'examples/run.mjs'), example], { cwd: root, env });
      const lines = stdout.trim().split('\n');
      const demo = /^(?:provisioned|reused) demo tenant (tnt-\S+) \(bank-demo\)$/.exec(lines[0]!)?.[1];
      expect(demo).toBeDefined();
      const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
      expect((await admin.listApiKeys({ limit: 1000, tenant_id: demo })).items.filter((k) => k.status === 'active')).toEqual([]);
      expect(lines[1]).toMatch(/^dry run/);
      expect(lines[2]).toBe('balance {"account":"acct-1"} -> acct-1: 25000 EUR');
      expect(lines[3]).toMatch(
        /^transfer \{"from":"acct-1","to":"offshore-7","amount":50\} -> Arbiter refused the call: blocked by rule rul-\S+: "No transfers to offshore accounts" \(verdict blocked, consultation cns-\S+\)\. The call was not forwarded\.$/,
      );
      expect(lines[4]).toMatch(
        /^transfer \{"from":"acct-1","to":"acct-2","amount":5000\} -> Arbiter needs an approval before this call: approval apr-\S+ is pending and may be decided by one of role-finance/,
      );
    });
  });
});
