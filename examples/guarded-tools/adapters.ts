// Both framework adapters on one tool (docs/agents.md "Framework adapters"): node examples/run.mjs guarded-tools/adapters
// The tenant and the agent's key come from the quickstart (ARBITER_TENANT, ARBITER_AGENT_KEY); without a model
// (ARBITER_MODEL, OPENAI_API_KEY) each wrapped tool is called as its framework would call it.
import { createVerdictClient, guardAgentsTool, guardAiTools, isToolRefusal } from '@arbiter/client';
import { Agent, run, RunContext, tool as agentsTool } from '@openai/agents';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { bank } from './bank';

const arbiter = createVerdictClient({
  baseUrl: process.env.ARBITER_VERDICT_URL ?? 'http://127.0.0.1:3002',
  apiKey: process.env.ARBITER_AGENT_KEY ?? '', // an agent's key with `check`
  tenant: process.env.ARBITER_TENANT ?? '',
});
const prompt = 'Move 50 EUR from acct-1 to acct-2.';
const input = { from: 'acct-1', to: 'acct-2', amount: 50 };
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  // Vercel AI SDK: a tools object, each tool under its key as name.
  const tools = guardAiTools(
    arbiter,
    {
      transfer: tool({
        description: 'Move money',
        inputSchema: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
        execute: bank.transfer,
      }),
    },
    { perTool: { transfer: { action: 'bank.transfer', resource: (i) => `acct:${i.from}`, scope: { region: 'eu' } } } },
  );
  if (process.env.ARBITER_MODEL) {
    say((await generateText({ model: process.env.ARBITER_MODEL, tools, stopWhen: stepCountIs(5), prompt })).text);
  } else {
    const result = await tools.transfer.execute!(input, { toolCallId: 'call-1', messages: [] });
    say(`AI SDK transfer -> ${isToolRefusal(result) ? result.message : String(result)}`);
  }

  // OpenAI Agents SDK: one function tool. `parse` (its own schema) makes the check judge what execute receives.
  const transferInput = z.object({ from: z.string(), to: z.string(), amount: z.number() });
  const transfer = guardAgentsTool(
    arbiter,
    agentsTool({ name: 'transfer', description: 'Move money', parameters: transferInput, execute: bank.transfer }),
    { action: 'bank.transfer', resource: (i) => `acct:${String(i.from)}`, scope: { region: 'eu' }, parse: (i) => transferInput.parse(i) },
  );
  if (process.env.OPENAI_API_KEY) {
    say(String((await run(new Agent({ name: 'bank agent', tools: [transfer] }), prompt)).finalOutput));
  } else {
    say(`Agents SDK transfer -> ${String(await transfer.invoke(new RunContext({}), JSON.stringify(input)))}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
