// An agent on the Vercel AI SDK (`ai`) whose tools ask Arbiter before they run (docs/agents.md
// "Framework adapters"): guardAiTools wraps the tools object; allowed calls run, every other outcome
// comes back to the model as a refusal it can read, and the tool never runs.
//
//   node examples/run.mjs ai-sdk/agent          # dry run: calls the tools directly
//   AI_GATEWAY_API_KEY=… ARBITER_MODEL=openai/gpt-5-mini node examples/run.mjs ai-sdk/agent
// In the demo tenant of `arbiter quickstart` (run.mjs reads .data/quickstart.env); else ARBITER_TENANT and
// ARBITER_AGENT_KEY, or ARBITER_ADMIN_KEY to provision one. Base URLs: ARBITER_REGISTRY_URL, ARBITER_VERDICT_URL.
import { guardAiTools, isToolRefusal, type VerdictClient } from '@arbiter/client';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { bank, DRY_RUN_CALLS, mappings, PROMPT, withDemoTenant } from '../guarded-tools/bank';

/** The bank's tools for the AI SDK, each guarded by Arbiter under its own mapping. */
export function bankTools(arbiter: VerdictClient) {
  const tools = {
    balance: tool({ description: 'The balance of an account', inputSchema: z.object({ account: z.string() }), execute: bank.balance }),
    transfer: tool({
      description: 'Move money between accounts',
      inputSchema: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
      execute: bank.transfer,
    }),
  };
  return guardAiTools(arbiter, tools, { perTool: mappings });
}

/** Calls each tool as the AI SDK would after a model's tool call, and prints what the model would read. */
export async function dryRun(arbiter: VerdictClient, log: (line: string) => void): Promise<unknown[]> {
  const tools = bankTools(arbiter);
  const out: unknown[] = [];
  for (const [i, { tool: name, input }] of DRY_RUN_CALLS.entries()) {
    const options = { toolCallId: `call-${i}`, messages: [] };
    const result =
      name === 'balance'
        ? await tools.balance.execute!(input as { account: string }, options)
        : await tools.transfer.execute!(input as { from: string; to: string; amount: number }, options);
    log(`${name} ${JSON.stringify(input)} -> ${isToolRefusal(result) ? result.message : String(result)}`);
    out.push(result);
  }
  return out;
}

async function main(): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  await withDemoTenant(log, (arbiter) => runWith(arbiter, log));
}

async function runWith(arbiter: VerdictClient, log: (line: string) => void): Promise<void> {
  const model = process.env.ARBITER_MODEL;
  if (!model) {
    log('dry run (set ARBITER_MODEL and the provider key to let a model call the tools)');
    await dryRun(arbiter, log);
    return;
  }
  const { text, steps } = await generateText({ model, tools: bankTools(arbiter), stopWhen: stepCountIs(5), prompt: PROMPT });
  for (const step of steps) for (const r of step.toolResults) log(`${r.toolName} -> ${JSON.stringify(r.output)}`);
  log(text);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
