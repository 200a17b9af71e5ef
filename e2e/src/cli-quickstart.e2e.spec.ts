import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRegistryClient } from '@arbiter/client';
import { writeStackFile } from '@arbiter/devstack';
import { parseEnvFile } from '../../apps/cli/src/settings';
import { buildBin, cli, root, runBin } from './cli-harness';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stdioProxy } from './mcp-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

/**
 * The first five minutes (README "Quick start", docs/cli.md "Quickstart"): `arbiter quickstart` against a real stack
 * found through the stack file `npm start` writes, the three checks it prints run as printed (with no key given: the
 * quickstart file's), a second run reusing everything, a lost file replaced with new keys while the old ones stop
 * working, scopes, the approval loop as commands, and the messages of a key the stack does not know.
 */
describe('arbiter quickstart, check, scopes and approvals', () => {
  let stack: Stack;
  let dir: string;
  let envFile: string;
  let first: Record<string, string>;
  let bin: string | undefined;
  const builtBin = async () => (bin ??= await buildBin(path.join(dir, 'bin', 'arbiter.js')));
  /** The CLI as a user runs it after `npm start` and the install step: no URL and no key in the environment. */
  const user = (env: Record<string, string> = {}) => cli(env, { dataDir: dir });

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-quickstart-'));
    envFile = path.join(dir, 'quickstart.env');
    writeStackFile(dir, { registry: stack.registry.url, verdict: stack.verdict.url, ledger: stack.ledger.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses to start without the platform admin key, and names the variable', async () => {
    const r = await user()('quickstart');
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('set ARBITER_ADMIN_KEY') });
  });

  it('creates the demo tenant, writes the quickstart file (0600, never printing a key), and prints three checks', async () => {
    const r = await user({ ARBITER_ADMIN_KEY: stack.registry.adminKey })('quickstart');
    expect(r.code).toBe(0);
    first = parseEnvFile(await readFile(envFile, 'utf8'));
    expect((await stat(envFile)).mode & 0o777).toBe(0o600);
    for (const name of [
      'ARBITER_REGISTRY_URL',
      'ARBITER_VERDICT_URL',
      'ARBITER_LEDGER_URL',
      'ARBITER_TENANT',
      'ARBITER_API_KEY',
      'ARBITER_AGENT_KEY',
      'ARBITER_APPROVER_KEY',
      'ARBITER_RULES_KEY',
      'ARBITER_SCOPE_ID',
      'ARBITER_AGENT_ID',
      'ARBITER_APPROVER_ID',
    ]) {
      expect(first[name]).toEqual(expect.any(String));
    }
    expect(first).toMatchObject({
      ARBITER_REGISTRY_URL: stack.registry.url,
      ARBITER_VERDICT_URL: stack.verdict.url,
      ARBITER_LEDGER_URL: stack.ledger.url,
      ARBITER_API_KEY: first.ARBITER_AGENT_KEY,
    });
    for (const key of Object.values(first).filter((v) => v.startsWith('ak-'))) expect(r.stdout + r.stderr).not.toContain(key);
    expect(r.stdout).toContain(`demo tenant quickstart (${first.ARBITER_TENANT}) created at ${stack.registry.url}`);

    // Read back through the registry: the scope, its three rules, the approver's role.
    const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: first.ARBITER_TENANT_ADMIN_KEY });
    const scope = await admin.getScope(first.ARBITER_SCOPE_ID);
    expect(scope).toMatchObject({ name: 'quickstart', selector: { region: 'eu' } });
    expect((await admin.listRules(scope.id)).map((r) => r.severity).sort()).toEqual(['ALLOW', 'MANDATORY', 'REQUIRES_APPROVAL']);
    expect(await admin.getPrincipal(first.ARBITER_APPROVER_ID)).toMatchObject({
      kind: 'human',
      roles: ['role-finance'],
      console_permissions: ['read', 'approve'],
    });
    expect((await admin.getPrincipal(first.ARBITER_TENANT_ADMIN_ID)).console_permissions).toEqual(['admin']);
    // The approver's console link, printed once: it opens a page naming the approver (docs/identity.md "Console sign-in").
    const link = /^The approver's console: (\S+)$/m.exec(r.stdout)![1]!;
    expect(link.startsWith(`${stack.registry.url}/console/auth/link/`)).toBe(true);
    expect(await (await fetch(link)).text()).toContain('<strong>quickstart-approver</strong>');
    const keys = await admin.all((cursor) => admin.listApiKeys({ cursor, limit: 1000 }));
    expect(keys.find((k) => k.principal_id === first.ARBITER_AGENT_ID)?.permissions.sort()).toEqual(['check', 'read']);
  });

  it('runs the three printed checks as printed, with the verdicts and exit codes it announces', async () => {
    const r = await user({ ARBITER_ADMIN_KEY: stack.registry.adminKey })('quickstart');
    const printed = [...r.stdout.matchAll(/^ {2}arbiter (check .+?)\s+# (\S+)$/gm)].map((m) => ({
      argv: m[1]!.split(' '),
      verdict: m[2]!,
    }));
    expect(printed.map((p) => p.verdict)).toEqual(['allowed', 'blocked', 'approval_required']);
    for (const p of printed) {
      const c = await user()(...p.argv);
      expect(c.stdout).toMatch(new RegExp(`^${p.verdict}  \\(consultation cns-`));
      expect(c.code).toBe(p.verdict === 'allowed' ? 0 : 1);
    }
    // The approval rule asks for a number: the amount as a string is not a way past it (it would make `gt` false).
    const approval = printed[2]!.argv.map((a) => (a === 'amount=5000' ? 'amount="5000"' : a));
    expect(approval).toContain('amount="5000"');
    const asString = await user()(...approval);
    expect(asString.code).not.toBe(0);
    expect(`${asString.stdout}${asString.stderr}`).toMatch(/insufficient_context[\s\S]*amount/);
  });

  it('runs a framework example in the quickstart tenant, found through the files: no tenant made per run', async () => {
    const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
    const tenants = (await admin.listTenants({ limit: 1000 })).items.length;
    const env: NodeJS.ProcessEnv = { ...process.env, ARBITER_DATA_DIR: dir, ARBITER_MODEL: '', OPENAI_API_KEY: '', AI_GATEWAY_API_KEY: '' };
    for (const name of ['ARBITER_REGISTRY_URL', 'ARBITER_VERDICT_URL', 'ARBITER_TENANT', 'ARBITER_AGENT_KEY', 'ARBITER_ADMIN_KEY'])
      delete env[name];
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'examples/run.mjs'), 'ai-sdk/agent'], {
      cwd: root,
      env,
    });
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`demo tenant ${first.ARBITER_TENANT}`);
    expect(lines).toContain('balance {"account":"acct-1"} -> acct-1: 25000 EUR');
    expect((await admin.listTenants({ limit: 1000 })).items.length).toBe(tenants);
  });

  it("reuses everything when run again: the tenant, principals, scope, rules and the file's keys", async () => {
    const again = await user({ ARBITER_ADMIN_KEY: stack.registry.adminKey })('quickstart', '--json');
    expect(again.code).toBe(0);
    const summary = again.json<{
      tenant: { id: string; created: boolean };
      keys: Record<string, number>;
      scope: { id: string; created: boolean };
      rules: { created: boolean }[];
    }>();
    expect(summary).toMatchObject({
      tenant: { id: first.ARBITER_TENANT, created: false },
      keys: { created: 0, reused: 4, revoked: 0 },
      scope: { id: first.ARBITER_SCOPE_ID, created: false },
    });
    expect(summary.rules.map((r) => r.created)).toEqual([false, false, false]);
    expect(parseEnvFile(await readFile(envFile, 'utf8'))).toEqual(first);
    expect(JSON.stringify(summary)).not.toContain(first.ARBITER_AGENT_KEY);
  });

  it('applies examples/mcp/rules.yaml to the quickstart scope without editing it: the three rules kept, one added', async () => {
    const file = path.join(root, 'examples/mcp/rules.yaml');
    const plan = await user()('rules', 'plan', '-f', file, '--scope', first.ARBITER_SCOPE_ID, '--no-simulate', '--json');
    expect(plan.code).toBe(0);
    expect(plan.json()).toMatchObject({
      scope: first.ARBITER_SCOPE_ID,
      create: [{ rule: { directive: 'An account is closed only after a verified identity check' } }],
      update: [],
      archive: [],
    });
    expect(plan.json<{ unchanged: string[] }>().unchanged).toHaveLength(3);
    expect((await user()('rules', 'apply', '-f', file, '--scope', first.ARBITER_SCOPE_ID)).code).toBe(0);
    expect((await user()('rules', 'apply', '-f', file, '--scope', first.ARBITER_SCOPE_ID)).stdout).toContain(
      'no changes (4 rules unchanged)',
    );
    // A file that names its scope is never redirected by --scope.
    const named = path.join(dir, 'named.yaml');
    await writeFile(named, `scope: ${first.ARBITER_SCOPE_ID}\nrules: []\n`);
    const other = await user()('rules', 'plan', '-f', named, '--scope', 'scp-000000000000000000000001', '--no-simulate');
    expect(other).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`the file manages scope ${first.ARBITER_SCOPE_ID}, not scp-000000000000000000000001`),
    });
    // The quickstart, run again, leaves the fourth rule alone.
    const again = await user({ ARBITER_ADMIN_KEY: stack.registry.adminKey })('quickstart', '--json');
    expect(again.json<{ rules: { created: boolean }[] }>().rules.map((r) => r.created)).toEqual([false, false, false]);
    expect(
      await createRegistryClient({ baseUrl: stack.registry.url, apiKey: first.ARBITER_RULES_KEY }).listRules(first.ARBITER_SCOPE_ID),
    ).toHaveLength(4);
  });

  it("runs docs/agents.md's five minutes on the quickstart tenant: the proxy takes its gateway and key from the files", async () => {
    const bin = await builtBin();
    const proxy = await stdioProxy(bin, path.join(root, 'examples/mcp/arbiter-mcp.yaml'), { ARBITER_DATA_DIR: dir });
    try {
      const meta = (r: CallToolResult) => (r._meta ?? {}) as Record<string, unknown>;
      const callTool = (name: string, args: Record<string, unknown>) =>
        proxy.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      expect((await callTool('balance', { account: 'acct-1' })).content).toEqual([{ type: 'text', text: 'acct-1: 25000 EUR' }]);
      const big = await callTool('transfer', { from: 'acct-1', to: 'acct-2', amount: 4000 });
      const approvalId = meta(big)['arbiter/approval_id'] as string;
      expect(approvalId).toMatch(/^apr-/);
      expect((await user()('approvals', 'decide', approvalId, '--approve')).code).toBe(0);
      const again = await callTool('transfer', { from: 'acct-1', to: 'acct-2', amount: 4000 });
      expect(again.isError).toBeFalsy();
      expect(meta(again)['arbiter/approval_id']).toBe(approvalId);
    } finally {
      await proxy.close();
    }
  });

  it('walks the approval loop with commands: request, decide, the same check allowed once', async () => {
    const third = [
      'check',
      '--action',
      'bank.transfer',
      '--resource',
      'acct:acct-1',
      '--scope',
      'region=eu',
      '--param',
      'to=acct-2',
      '--param',
      'amount=5000',
    ];
    const asked = await user()(...third, '--json');
    expect(asked.json()).toMatchObject({ verdict: 'approval_required' });
    const consultation = asked.json<{ consultation_id: string }>().consultation_id;
    const requested = await user()('approvals', 'request', consultation, '--notes', 'supplier invoice', '--json');
    expect(requested.json()).toMatchObject({ status: 'pending', consultation_id: consultation, candidate_deciders: ['role-finance'] });
    const approvalId = requested.json<{ id: string }>().id;
    // The agent's key may not decide; the approver's (the file's, for `decide`) may.
    expect((await user({ ARBITER_API_KEY: first.ARBITER_AGENT_KEY })('approvals', 'decide', approvalId, '--approve')).code).toBe(1);
    const pending = (await user()('approvals', 'list', '--status', 'pending')).stdout;
    expect(pending).toContain(approvalId);
    // Its quorum and expiry (docs/approvals.md "Quorum, escalation and expiry").
    expect(pending).toContain(`approvals 0/1, expires ${requested.json<{ expires_at: string }>().expires_at}`);
    const decided = await user()('approvals', 'decide', approvalId, '--approve', '--notes', 'checked');
    expect(decided).toMatchObject({ code: 0, stdout: expect.stringContaining(`approval ${approvalId} approved`) });
    const allowed = await user()(...third, '--json');
    expect(allowed).toMatchObject({ code: 0 });
    expect(allowed.json()).toMatchObject({ verdict: 'allowed' });
    expect((await user()(...third)).code).toBe(1);
  });

  it("creates and lists scopes with the file's tenant admin key; an agent key may not create one", async () => {
    const created = await user()('scopes', 'create', 'payments-us', '--selector', 'region=us', '--json');
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ id: expect.stringMatching(/^scp-/), name: 'payments-us', selector: { region: 'us' } });
    const listed = await user()('scopes', 'list');
    expect(listed.stdout).toContain(`${first.ARBITER_SCOPE_ID}  quickstart  selector: {"region":"eu"}  active`);
    expect(listed.stdout).toContain('payments-us  selector: {"region":"us"}');
    const agent = await user({ ARBITER_API_KEY: first.ARBITER_AGENT_KEY })('scopes', 'create', 'sneaky');
    expect(agent).toMatchObject({ code: 1, stderr: expect.stringContaining('403') });
  });

  it('says so when a service does not know the key, naming the URL it used and where it came from', async () => {
    const stranger = `ak-${randomBytes(32).toString('hex')}`;
    const r = await user({ ARBITER_API_KEY: stranger })(
      'check',
      '--action',
      'bank.balance',
      '--resource',
      'acct:acct-1',
      '--scope',
      'region=eu',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `the verdict service at ${stack.verdict.url} (from ${path.join(dir, 'quickstart.env')}) does not know the API key (from ARBITER_API_KEY): 401`,
    );
    expect(r.stderr).not.toContain(stranger);
    const down = await user({ ARBITER_VERDICT_URL: 'http://127.0.0.1:9' })(
      'check',
      '--action',
      'a',
      '--resource',
      'r',
      '--api-key',
      stranger,
    );
    expect(down).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot reach the verdict service at http://127.0.0.1:9 (from ARBITER_VERDICT_URL)'),
    });
  });

  it("never sends the quickstart file's keys to another URL than the file's", async () => {
    const other = cli({ ARBITER_VERDICT_URL: 'http://127.0.0.1:9' }, { dataDir: dir });
    const r = await other('check', '--action', 'bank.balance', '--resource', 'acct:acct-1');
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `the quickstart file's key is for the stack at ${stack.verdict.url}, and is not sent to http://127.0.0.1:9`,
      ),
    });
  });

  it("replaces a lost file with new keys and revokes the old ones, so exactly the file's keys work", async () => {
    await rm(envFile);
    const r = await user({ ARBITER_ADMIN_KEY: stack.registry.adminKey })('quickstart', '--json');
    expect(r.json()).toMatchObject({ tenant: { id: first.ARBITER_TENANT, created: false }, keys: { created: 4, reused: 0, revoked: 4 } });
    const now = parseEnvFile(await readFile(envFile, 'utf8'));
    expect(now.ARBITER_AGENT_KEY).not.toBe(first.ARBITER_AGENT_KEY);
    // Revocations reach the gateway's key cache over Redis: wait for it, then the old key is unknown.
    const old = await eventually('the revoked key refused', async () => {
      const r = await user({ ARBITER_API_KEY: first.ARBITER_AGENT_KEY })(
        'check',
        '--action',
        'bank.balance',
        '--resource',
        'acct:acct-1',
        '--scope',
        'region=eu',
      );
      return r.code === 0 ? undefined : r;
    });
    expect(old).toMatchObject({ code: 1, stderr: expect.stringContaining('does not know the API key') });
    expect((await user()('check', '--action', 'bank.balance', '--resource', 'acct:acct-1', '--scope', 'region=eu')).code).toBe(0);
  });

  it('runs from the built bin outside the clone, finding the stack through ARBITER_DATA_DIR', async () => {
    const bin = await builtBin();
    const help = await runBin(bin, ['--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('quickstart') });
    const checked = await runBin(
      bin,
      [
        'check',
        '--action',
        'bank.transfer',
        '--resource',
        'acct:acct-1',
        '--scope',
        'region=eu',
        '--param',
        'to=offshore-7',
        '--param',
        'amount=50',
      ],
      { ARBITER_DATA_DIR: dir },
    );
    expect(checked).toMatchObject({ code: 1, stdout: expect.stringMatching(/^blocked {2}\(consultation cns-/) });
    // Without a data directory (a bundle outside any clone) there is no quickstart file to read.
    const bare = await runBin(bin, ['check', '--action', 'a', '--resource', 'r'], { ARBITER_VERDICT_URL: stack.verdict.url });
    expect(bare).toMatchObject({ code: 2, stderr: expect.stringContaining('no API key for the verdict service') });
  });

  it('reads a stack file of another shape as data: only its URL lines count', async () => {
    const odd = await mkdtemp(path.join(os.tmpdir(), 'arbiter-odd-'));
    try {
      await writeFile(
        path.join(odd, 'stack.env'),
        `# comment\nexport ARBITER_VERDICT_URL="${stack.verdict.url}"\n$(touch ${odd}/pwned)\nARBITER_API_KEY=${first.ARBITER_AGENT_KEY}\n`,
      );
      const r = await cli({}, { dataDir: odd })('check', '--action', 'a', '--resource', 'r');
      // The stack file holds no keys: the one planted there is not used.
      expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('no API key for the verdict service') });
      await expect(stat(path.join(odd, 'pwned'))).rejects.toThrow();
      // Its URL is used, and named with the file it came from when the key is unknown there.
      const stranger = `ak-${randomBytes(32).toString('hex')}`;
      const unknown = await cli({ ARBITER_API_KEY: stranger }, { dataDir: odd })('check', '--action', 'a', '--resource', 'r');
      expect(unknown.stderr).toContain(
        `the verdict service at ${stack.verdict.url} (from ${path.join(odd, 'stack.env')}, written by npm start) does not know the API key (from ARBITER_API_KEY): 401`,
      );
    } finally {
      await rm(odd, { recursive: true, force: true });
    }
  });
});
