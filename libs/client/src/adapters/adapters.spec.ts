// The adapters on real tools of both frameworks (`ai`'s tool(), @openai/agents' tool()), with a scripted
// verdict client: the original execute runs only on allowed, once; every refusal is returned (or thrown)
// and the original never runs. The same tools against the real stack: e2e/src/guard-adapters.e2e.spec.ts.
import { RunContext, tool as agentsTool } from '@openai/agents-core';
import { tool as aiTool } from 'ai';
import { z } from 'zod';
import { approval, complete, stubClient, verdictError } from '../../test/stub-guard-client';
import { guardAgentsTool } from './openai-agents';
import { guardAiTool, guardAiTools } from './ai-sdk';
import { ToolRefusedError } from './guarded-tool';

const input = { from: 'acct-1', to: 'acct-2', amount: 50 };
const options = { toolCallId: 'call-1', messages: [] };

function aiTransfer() {
  const runs: unknown[] = [];
  const t = aiTool({
    description: 'Move money',
    inputSchema: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
    execute: async (i) => {
      runs.push(i);
      return `transferred ${i.amount}`;
    },
  });
  return { t, runs };
}

function agentsTransfer() {
  const runs: unknown[] = [];
  const t = agentsTool({
    name: 'transfer',
    description: 'Move money',
    parameters: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
    execute: async (i) => {
      runs.push(i);
      return `transferred ${i.amount}`;
    },
  });
  return { t, runs };
}

describe(guardAiTool.name, () => {
  it('runs the original once when allowed, checking the mapped operation, and reports the signed verdict', async () => {
    const s = stubClient({ check: [complete('allowed')] });
    const { t, runs } = aiTransfer();
    const seen: string[] = [];
    const guarded = guardAiTool(s.client, t, {
      name: 'transfer',
      action: 'bank.transfer',
      resource: (i) => `acct:${i.from}`,
      scope: { region: 'eu' },
      onOutcome: (o) => seen.push(o.kind === 'allowed' ? o.signedVerdict : o.kind),
    });
    expect(await guarded.execute!(input, options)).toBe('transferred 50');
    expect(runs).toEqual([input]);
    expect(seen).toEqual(['jws.allowed']);
    expect(s.calls[0].body).toEqual({ action: 'bank.transfer', resource: 'acct:acct-1', scope: { region: 'eu' }, parameters: input });
    // The rest of the tool is the original's.
    expect(guarded.description).toBe('Move money');
    expect(guarded.inputSchema).toBe(t.inputSchema);
  });

  it('defaults to action tool.<name> and resource tool:<name>', async () => {
    const s = stubClient({ check: [complete('allowed')] });
    await guardAiTool(s.client, aiTransfer().t, { name: 'transfer' }).execute!(input, options);
    expect(s.calls[0].body).toMatchObject({ action: 'tool.transfer', resource: 'tool:transfer', scope: {} });
  });

  it('returns a refusal the model can read and never runs the original when blocked', async () => {
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x' })],
      consultation: { precedence_trace: [{ rule_id: 'rul-x', rule_version_id: 'rv-x', decided_by: 'severity' }] },
      ruleVersion: { statement: 'No offshore' },
    });
    const { t, runs } = aiTransfer();
    const out = await guardAiTool(s.client, t, { name: 'transfer' }).execute!(input, options);
    expect(out).toEqual({
      arbiter_refused: true,
      outcome: 'blocked',
      message:
        'Arbiter refused the call: blocked by rule rul-x: "No offshore" (verdict blocked, consultation cns-blocked). The call was not forwarded.',
      consultation_id: 'cns-blocked',
      rule_id: 'rul-x',
    });
    expect(runs).toEqual([]);
  });

  it('hands the model the explanation of a refusal, when the gateway has one', async () => {
    const explanation = { not_invertible: [], to_allow: [{ changes: [{ field: 'to', op: 'not_in', value: ['offshore-7'] }] }] };
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x' })],
      consultation: { precedence_trace: [] },
      explanation: { explanation },
    });
    const { t, runs } = aiTransfer();
    const out = await guardAiTool(s.client, t, { name: 'transfer' }).execute!(input, options);
    expect(out).toMatchObject({ arbiter_refused: true, outcome: 'blocked', consultation_id: 'cns-blocked', explanation });
    expect(runs).toEqual([]);
  });

  it('hands the model where the budget stood when a window refused the call', async () => {
    const limits = [{ rule_id: 'rul-x', key: '{"principal":"agn-1"}', window: '1h', used_before: 50, used_after: 50, max: 50 }];
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x', limits } as never)],
      consultation: { precedence_trace: [] },
    });
    const { t, runs } = aiTransfer();
    const out = await guardAiTool(s.client, t, { name: 'transfer' }).execute!(input, options);
    expect(out).toMatchObject({ arbiter_refused: true, outcome: 'blocked', rule_id: 'rul-x', limits });
    expect(runs).toEqual([]);
  });

  it('throws ToolRefusedError with the outcome when asked to', async () => {
    const s = stubClient({ check: [complete('approval_required')], createApproval: [approval('pending')] });
    const { t, runs } = aiTransfer();
    const err = await Promise.resolve(guardAiTool(s.client, t, { name: 'transfer', onRefusal: 'throw' }).execute!(input, options)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolRefusedError);
    expect((err as ToolRefusedError).outcome).toMatchObject({ kind: 'approval_pending', approvalId: 'apr-1' });
    expect(runs).toEqual([]);
  });

  it('refuses when the resource mapping throws, without asking Arbiter or running the tool', async () => {
    const s = stubClient({});
    const { t, runs } = aiTransfer();
    const out = await guardAiTool(s.client, t, {
      name: 'transfer',
      resource: () => {
        throw new Error('no account');
      },
    }).execute!(input, options);
    expect(out).toMatchObject({ arbiter_refused: true, outcome: 'unavailable' });
    expect(s.calls).toEqual([]);
    expect(runs).toEqual([]);
  });

  it('fails closed when Arbiter cannot be reached', async () => {
    const s = stubClient({ check: [verdictError(0, 'network_error')] });
    const { t, runs } = aiTransfer();
    expect(await guardAiTool(s.client, t, { name: 'transfer' }).execute!(input, options)).toMatchObject({
      arbiter_refused: true,
      outcome: 'unavailable',
    });
    expect(runs).toEqual([]);
  });

  it('guards a whole tools object under each key, with per-tool options', async () => {
    const s = stubClient({ check: [complete('allowed')] });
    const tools = guardAiTools(
      s.client,
      { transfer: aiTransfer().t, balance: aiTransfer().t },
      { scope: { region: 'eu' }, perTool: { balance: { action: 'bank.balance' } } },
    );
    await tools.transfer.execute!(input, options);
    await tools.balance.execute!(input, options);
    expect(s.calls.map((c) => (c.body as { action: string }).action)).toEqual(['tool.transfer', 'bank.balance']);
  });

  it('refuses to wrap a tool without execute', () => {
    expect(() => guardAiTool(stubClient({}).client, { description: 'x' } as never, { name: 'x' })).toThrow(/no execute function/);
  });
});

describe(guardAgentsTool.name, () => {
  const ctx = new RunContext({});

  it('runs the original invoke once when allowed, as the runner calls it (JSON text in)', async () => {
    const s = stubClient({ check: [complete('allowed')] });
    const { t, runs } = agentsTransfer();
    const guarded = guardAgentsTool(s.client, t, { action: 'bank.transfer', scope: { region: 'eu' } });
    expect(await guarded.invoke(ctx, JSON.stringify(input))).toBe('transferred 50');
    expect(runs).toEqual([input]);
    expect(s.calls[0].body).toMatchObject({ action: 'bank.transfer', resource: 'tool:transfer', parameters: input });
    expect(guarded.name).toBe('transfer');
    expect(guarded.parameters).toBe(t.parameters);
  });

  it('returns the refusal text and never runs the original otherwise', async () => {
    const s = stubClient({ check: [complete('approval_required')], createApproval: [approval('pending')] });
    const { t, runs } = agentsTransfer();
    const out = await guardAgentsTool(s.client, t).invoke(ctx, JSON.stringify(input));
    expect(out).toMatch(/^Arbiter needs an approval before this call: approval apr-1 is pending/);
    expect(runs).toEqual([]);
  });

  it('refuses input that is not a JSON object before any check', async () => {
    const s = stubClient({});
    const { t, runs } = agentsTransfer();
    expect(await guardAgentsTool(s.client, t).invoke(ctx, '[1,2]')).toMatch(/not a JSON object/);
    expect(await guardAgentsTool(s.client, t).invoke(ctx, '{oops')).toMatch(/not a JSON object/);
    await expect(guardAgentsTool(s.client, t, { onRefusal: 'throw' }).invoke(ctx, 'nope')).rejects.toBeInstanceOf(ToolRefusedError);
    expect(s.calls).toEqual([]);
    expect(runs).toEqual([]);
  });
});
