import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRegistryClient } from '@arbiter/client';
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
    expect(demo.created).toBe(true);
    const result = await runAgentLoop({
      verdictUrl: stack.verdict.url,
      tenant: demo.tenant,
      agentKey: demo.agentKey,
      deciderKey: demo.deciderKey,
      log: (l) => lines.push(l),
    });
    expect(result).toMatchObject({
      firstVerdict: 'approval_required',
      rounds: 2,
      approval: { status: 'approved' },
      finalClaims: { verdict: 'allowed', action: 'payments.transfer' },
    });
    expect(lines.join('\n')).toMatch(/human: approving apr-/);
    await demo.cleanUp(result.approval);
  });

  it('runs as a program, as docs/sdk.md shows (node examples/run.mjs agent-loop), in the one demo tenant every run reuses', async () => {
    const env = {
      ...process.env,
      ARBITER_REGISTRY_URL: stack.registry.url,
      ARBITER_VERDICT_URL: stack.verdict.url,
      ARBITER_ADMIN_KEY: stack.registry.adminKey,
    };
    const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
    const tenants = (await admin.listTenants({ limit: 1000 })).items.length;
    const seen: string[] = [];
    // Twice: the second run starts as the first did (its keys and the first run's grant were cleaned up).
    for (let i = 0; i < 2; i++) {
      const { stdout } = await run(process.execPath, [path.join(root, 'examples/run.mjs'), 'agent-loop'], { cwd: root, env });
      seen.push(/^reused demo tenant (tnt-\S+) \(agent-loop-demo\)$/m.exec(stdout)?.[1] ?? stdout);
      expect(stdout).toMatch(/agent: verdict approval_required after 2 rounds/);
      expect(stdout).toMatch(/agent: allowed \(consultation cns-[^)]+\): transferring 25000 EUR/);
    }
    expect(seen[0]).toMatch(/^tnt-/);
    expect(seen[1]).toBe(seen[0]);
    expect((await admin.listTenants({ limit: 1000 })).items.length).toBe(tenants);
    const keys = await admin.all((cursor) => admin.listApiKeys({ cursor, limit: 1000, tenant_id: seen[0] }));
    expect(keys.filter((k) => k.status === 'active')).toEqual([]);
  });
});
