import { lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRegistryClient } from '@arbiter/client';
import type { RegistryHarness } from '../../../apps/registry/test/harness';
import { startStack, type Stack } from '../stack';
import { buildBin, runBin } from '../cli-harness';

/**
 * The CLI's files and keys attacked (docs/cli.md "Files and keys"): a link planted where the CLI
 * writes, a key file other users could read, inputs made to exhaust it, and an API key leaking into
 * its output. The built bin as a user runs it, against a real registry; each attack beside the
 * legitimate use.
 */
describe("abuse: the arbiter CLI's files and keys", () => {
  let stack: Stack;
  let h: RegistryHarness;
  let dir: string;
  let bin: string;
  let env: Record<string, string>;
  let scopeId: string;
  let principalId: string;
  const file = (name: string) => path.join(dir, name);
  const arbiter = (...argv: string[]) => runBin(bin, argv, env);

  beforeAll(async () => {
    stack = await startStack();
    h = stack.registry;
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-cli-abuse-'));
    bin = await buildBin(file('arbiter.js'));
    const platform = createRegistryClient({ baseUrl: h.url, apiKey: h.adminKey });
    const tenant = await platform.createTenant({ slug: `abuse-${randomUUID().slice(0, 8)}`, name: 'abuse' });
    const admin = await platform.createPrincipal({ kind: 'human', name: 'admin', tenant_id: tenant.id });
    const adminKey = (await platform.createApiKey({ principal_id: admin.id, permissions: ['admin'], tenant_id: tenant.id })).key;
    const reg = createRegistryClient({ baseUrl: h.url, apiKey: adminKey });
    scopeId = (await reg.createScope({ name: 'payments', selector: { region: 'eu' } })).id;
    await reg.createRule(scopeId, {
      directive: 'Transfers above 50,000 are blocked',
      severity: 'MANDATORY',
      conditions: [{ field: 'amount', op: 'gt', value: 50000 }],
    });
    principalId = (await reg.createPrincipal({ kind: 'agent', name: 'bot' })).id;
    env = { ARBITER_REGISTRY_URL: h.url, ARBITER_API_KEY: adminKey };
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('replaces a link planted at the output instead of writing through it to the file it points at', async () => {
    const legit = await arbiter('rules', 'export', '--scope', scopeId, '-o', file('rules.yaml'));
    expect(legit.code).toBe(0);
    expect(await readFile(file('rules.yaml'), 'utf8')).toContain('Transfers above 50,000 are blocked');

    await writeFile(file('victim'), 'precious\n');
    await symlink(file('victim'), file('planted.yaml'));
    const r = await arbiter('rules', 'export', '--scope', scopeId, '-o', file('planted.yaml'));
    expect(r.code).toBe(0);
    expect(await readFile(file('victim'), 'utf8')).toBe('precious\n');
    expect((await lstat(file('planted.yaml'))).isSymbolicLink()).toBe(false);
    expect(await readFile(file('planted.yaml'), 'utf8')).toBe(await readFile(file('rules.yaml'), 'utf8'));
  });

  it('writes a created API key to a 0600 file, whatever the umask, and prints it nowhere', async () => {
    const umask = process.umask(0o000);
    let r;
    try {
      r = await arbiter('api-keys', 'create', '--principal', principalId, '--permission', 'check', '--out', file('bot.key'));
    } finally {
      process.umask(umask);
    }
    expect(r.code).toBe(0);
    const key = (await readFile(file('bot.key'), 'utf8')).trim();
    expect(key).toMatch(/^ak-[0-9a-f]{64}$/);
    expect((await stat(file('bot.key'))).mode & 0o777).toBe(0o600);
    expect(r.stdout).toContain(`the key is in ${file('bot.key')} (mode 0600`);
    expect(r.stdout + r.stderr).not.toContain(key);
    // The key is a real one: the registry knows it (403 for want of admin, not 401).
    const listed = await fetch(`${h.url}/api/v1/api-keys`, { headers: { Authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(403);
    // Without --out the key is printed once, as before.
    const shown = await arbiter('api-keys', 'create', '--principal', principalId, '--permission', 'check');
    expect(shown.stdout).toMatch(/\nak-[0-9a-f]{64}\n$/);
  });

  it('never shows the API key it was given, in errors or in --json', async () => {
    const revoked = `ak-${'ab'.repeat(32)}`;
    for (const argv of [
      ['tenants', 'list'],
      ['--json', 'principals', 'list'],
    ]) {
      const r = await runBin(bin, argv, { ARBITER_REGISTRY_URL: h.url, ARBITER_API_KEY: revoked });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(revoked);
      expect(r.stdout + r.stderr).not.toContain(revoked.slice(3, 20));
    }
    const unreachable = await runBin(bin, ['tenants', 'list'], { ARBITER_REGISTRY_URL: 'http://127.0.0.1:1', ARBITER_API_KEY: revoked });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).not.toContain(revoked);
  });

  it('stops at an alias bomb in a rules file, and at an endless input, with one line and no stack trace', async () => {
    const bomb = [
      `scope: ${scopeId}`,
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdef'[i]}`).join(', ')}]`),
      'rules: []',
      '',
    ].join('\n');
    await writeFile(file('bomb.yaml'), bomb);
    const r = await arbiter('rules', 'plan', '-f', file('bomb.yaml'), '--no-simulate');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `arbiter: the rules file is not valid (1 problem):\n${file('bomb.yaml')}:1:1: the file uses aliases beyond reason (an alias bomb?): Excessive alias count indicates a resource exhaustion attack\n`,
    );

    const endless = await arbiter('rules', 'plan', '-f', '/dev/zero', '--no-simulate');
    expect(endless).toMatchObject({
      code: 2,
      stderr: 'arbiter: cannot read the rules file /dev/zero: larger than 64 MiB: not an input the CLI reads\n',
    });

    // The legitimate file plans as ever.
    const plan = await arbiter('rules', 'plan', '-f', file('rules.yaml'), '--no-simulate');
    expect(plan).toMatchObject({ code: 0, stdout: expect.stringContaining('0 to create, 0 to update, 0 to archive, 1 unchanged') });
  });
});
