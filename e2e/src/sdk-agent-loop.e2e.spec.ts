import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { provisionDemoTenant, runAgentLoop } from '../../examples/agent-loop';
import { startStack, type Stack } from './stack';

jest.setTimeout(120_000);

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

/** examples/agent-loop.ts: resolve → approval_required → a human approves → check → allowed, with only the SDK. */
describe('examples/agent-loop.ts', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
  });
  afterAll(() => stack?.stop());

  it('runs the whole loop against the services', async () => {
    const lines: string[] = [];
    const demo = await provisionDemoTenant(stack.registry.url, stack.registry.adminKey);
    const result = await runAgentLoop({ verdictUrl: stack.verdict.url, tenant: demo.tenant, agentKey: demo.agentKey, deciderKey: demo.deciderKey, log: (l) => lines.push(l) });
    expect(result).toMatchObject({ firstVerdict: 'approval_required', rounds: 2, approval: { status: 'approved' }, finalClaims: { verdict: 'allowed', action: 'payments.transfer' } });
    expect(lines.join('\n')).toMatch(/human: approving apr-/);
  });

  it('runs as a program, as docs/sdk.md shows (node examples/run.mjs agent-loop)', async () => {
    const env = { ...process.env, ARBITER_REGISTRY_URL: stack.registry.url, ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_ADMIN_KEY: stack.registry.adminKey };
    const { stdout } = await run(process.execPath, [path.join(root, 'examples/run.mjs'), 'agent-loop'], { cwd: root, env });
    expect(stdout).toMatch(/provisioned demo tenant tnt-/);
    expect(stdout).toMatch(/agent: allowed \(consultation cns-[^)]+\): transferring 25000 EUR/);
  });
});
