// An agent on the OpenAI Agents SDK (`@openai/agents`) whose function tools ask Arbiter before they run
// (docs/agents.md "Framework adapters"): guardAgentsTool wraps each tool; allowed calls run, every other
// outcome comes back to the model as text it can read, and the tool never runs.
//
//   node examples/run.mjs openai-agents/agent          # dry run: calls the tools directly
//   OPENAI_API_KEY=sk-… node examples/run.mjs openai-agents/agent
// In the demo tenant of `arbiter quickstart` (run.mjs reads .data/quickstart.env); else ARBITER_TENANT and
// ARBITER_AGENT_KEY, or ARBITER_ADMIN_KEY to provision one. Base URLs: ARBITER_REGISTRY_URL, ARBITER_VERDICT_URL.
import { Agent, run, RunContext, tool } from '@openai/agents';
import { guardAgentsTool, type VerdictClient } from '@arbiter/client';
import { z } from 'zod';
import { bank, DRY_RUN_CALLS, mappings, PROMPT, withDemoTenant } from '../guarded-tools/bank';

/**
 * The bank's function tools, each guarded by Arbiter under its own mapping. `parse` is the tool's own schema: the
 * check judges the input as execute receives it (a schema that trims or lowercases would otherwise let the rules
 * judge one value and the tool run with another).
 */
export function bankTools(arbiter: VerdictClient) {
  const balanceInput = z.object({ account: z.string() });
  const transferInput = z.object({ from: z.string(), to: z.string(), amount: z.number() });
  const balance = tool({ name: 'balance', description: 'The balance of an account', parameters: balanceInput, execute: bank.balance });
  const transfer = tool({
    name: 'transfer',
    description: 'Move money between accounts',
    parameters: transferInput,
    execute: bank.transfer,
  });
  return {
    balance: guardAgentsTool(arbiter, balance, {
      ...mappings.balance,
      parse: (i) => balanceInput.parse(i),
      resource: (i) => `acct:${String(i.account)}`,
    }),
    transfer: guardAgentsTool(arbiter, transfer, {
      ...mappings.transfer,
      parse: (i) => transferInput.parse(i),
      resource: (i) => `acct:${String(i.from)}`,
    }),
  };
}

/** Invokes each tool as the runner would after a model's tool call, and prints what the model would read. */
export async function dryRun(arbiter: VerdictClient, log: (line: string) => void): Promise<unknown[]> {
  const tools = bankTools(arbiter);
  const out: unknown[] = [];
  for (const { tool: name, input } of DRY_RUN_CALLS) {
    const result = await tools[name].invoke(new RunContext({}), JSON.stringify(input));
    log(`${name} ${JSON.stringify(input)} -> ${typeof result === 'string' ? result : JSON.stringify(result)}`);
    out.push(result);
  }
  return out;
}

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  await withDemoTenant(log, (arbiter) => runWith(arbiter, log));
}

async function runWith(arbiter: VerdictClient, log: (line: string) => void): Promise<void> {
  if (!process.env.OPENAI_API_KEY) {
    log('dry run (set OPENAI_API_KEY to let a model call the tools)');
    await dryRun(arbiter, log);
    return;
  }
  const tools = bankTools(arbiter);
  const agent = new Agent({
    name: 'bank agent',
    instructions: 'You run bank operations with the tools you have. Report refusals as they are.',
    tools: [tools.balance, tools.transfer],
  });
  const result = await run(agent, PROMPT);
  log(String(result.finalOutput));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
