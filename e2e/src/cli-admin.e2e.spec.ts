import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RegistryHarness } from '../../apps/registry/test/harness';
import { startStack, type Stack } from './stack';
import { cli } from './cli-harness';

/**
 * `arbiter tenants | principals | api-keys` against a real registry: a platform admin provisions a
 * tenant, its admin a principal and a key, and the key works until it is revoked or its principal
 * deactivated. Every result is read back through the registry's API, not only from the CLI's output.
 */
describe('arbiter tenants, principals and api-keys', () => {
  let stack: Stack;
  let h: RegistryHarness;
  let dir: string;
  let platform: ReturnType<typeof cli>;
  let slug: string;
  let tenantId: string;
  let admin: ReturnType<typeof cli>;
  let adminKey: string;
  const registry = async (key: string, route: string) => {
    const res = await fetch(`${h.url}${route}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { items: Record<string, unknown>[] } };
  };

  beforeAll(async () => {
    stack = await startStack();
    h = stack.registry;
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-admin-'));
    platform = cli({ ARBITER_REGISTRY_URL: h.url, ARBITER_API_KEY: h.adminKey });
    slug = `acme-${randomUUID().slice(0, 8)}`;
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a tenant with settings from a file, lists it, reads it and renames it', async () => {
    await writeFile(
      path.join(dir, 'settings.json'),
      JSON.stringify({ scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } }),
    );
    const created = await platform('tenants', 'create', slug, '--name', 'Acme', '--settings', path.join(dir, 'settings.json'), '--json');
    expect(created.code).toBe(0);
    tenantId = created.json<{ id: string }>().id;
    expect(created.json()).toMatchObject({
      id: expect.stringMatching(/^tnt-/),
      slug,
      name: 'Acme',
      settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } },
    });
    expect((await registry(h.adminKey, `/api/v1/tenants/${tenantId}`)).body).toMatchObject({ slug, name: 'Acme' });

    const listed = await platform('tenants', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${tenantId}  ${slug}  Acme  active\n`);
    const got = await platform('tenants', 'get', tenantId);
    expect(got.stdout).toContain('"allowed_values":["eu","us"]');
    const renamed = await platform('tenants', 'update', tenantId, '--name', 'Acme Ltd');
    expect(renamed).toMatchObject({ code: 0, stdout: `tenant ${tenantId} updated: ${slug} (Acme Ltd)\n` });
    expect((await registry(h.adminKey, `/api/v1/tenants/${tenantId}`)).body.name).toBe('Acme Ltd');
  });

  it('creates the tenant admin and its key, printing the key once; the key works', async () => {
    const principal = await platform('principals', 'create', '--kind', 'human', '--name', 'Ada', '--tenant', tenantId, '--json');
    expect(principal.code).toBe(0);
    const adminId = principal.json<{ id: string }>().id;
    const key = await platform('api-keys', 'create', '--principal', adminId, '--permission', 'admin', '--tenant', tenantId);
    expect(key.code).toBe(0);
    const lines = key.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^API key key-\\S+ created: key-\\S+  ${adminId}  ak-\\S*…  active  permissions: admin  scopes: all$`),
    );
    expect(lines[1]).toBe('the key, shown this once (store it now; the registry keeps only its hash):');
    expect(lines[2]).toMatch(/^ak-[0-9a-f]+$/);
    expect((await registry(lines[2], '/api/v1/tenants')).body.items.map((t) => t.id)).toEqual([tenantId]);
    adminKey = lines[2];
    admin = cli({ ARBITER_REGISTRY_URL: h.url, ARBITER_REGISTRY_API_KEY: adminKey });

    const keys = await admin('api-keys', 'list', '--json');
    expect(keys.json<Record<string, unknown>[]>()).toEqual([
      expect.objectContaining({ principal_id: adminId, permissions: ['admin'], status: 'active' }),
    ]);
    expect(keys.stdout).not.toContain(lines[2]);
  });

  it('manages an agent: roles, a scoped key with an expiry, revocation and deactivation', async () => {
    const bot = await admin(
      'principals',
      'create',
      '--kind',
      'agent',
      '--name',
      'payments-bot',
      '--role',
      'role-payments',
      '--role',
      'role-ops',
      '--json',
    );
    const botId = bot.json<{ id: string }>().id;
    expect(bot.json()).toMatchObject({
      id: expect.stringMatching(/^agn-/),
      kind: 'agent',
      roles: ['role-payments', 'role-ops'],
      tenant_id: tenantId,
    });
    const updated = await admin('principals', 'update', botId, '--role', 'role-ops', '--name', 'bot');
    expect(updated.code).toBe(0);
    const got = await admin('principals', 'get', botId, '--json');
    expect(got.json()).toMatchObject({ id: botId, name: 'bot', roles: ['role-ops'], active: true });
    const list = await admin('principals', 'list');
    expect(list.stdout).toContain(`${botId}  agent  bot  active  roles: role-ops\n`);

    const scope = async (name: string) =>
      (
        (await (
          await fetch(`${h.url}/api/v1/scopes`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          })
        ).json()) as { id: string }
      ).id;
    const [mine, other] = [await scope('payments'), await scope('hr')];
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const created = await admin(
      'api-keys',
      'create',
      '--principal',
      botId,
      '--permission',
      'read',
      '--permission',
      'check',
      '--scope',
      mine,
      '--expires-at',
      expires,
      '--json',
    );
    expect(created.code).toBe(0);
    const { id: keyId, key } = created.json<{ id: string; key: string }>();
    expect(created.json()).toMatchObject({ permissions: ['read', 'check'], scope_ids: [mine], expires_at: expires, status: 'active' });
    expect((await registry(key, '/api/v1/scopes')).body.items.map((s) => s.id)).toEqual([mine]);
    expect((await registry(key, `/api/v1/scopes/${other}`)).status).toBe(404);

    const only = await admin('api-keys', 'list', '--principal', botId);
    expect(only.stdout).toMatch(
      new RegExp(`^${keyId}  ${botId}  ak-\\S*…  active  permissions: read, check  scopes: ${mine}  expires ${expires}\\n$`),
    );
    const revoked = await admin('api-keys', 'revoke', keyId, '--json');
    expect(revoked.json()).toMatchObject({ id: keyId, status: 'revoked' });
    expect((await registry(key, '/api/v1/scopes')).status).toBe(401);

    const second = (await admin('api-keys', 'create', '--principal', botId, '--permission', 'read', '--json')).json<{ key: string }>().key;
    expect((await registry(second, '/api/v1/scopes')).status).toBe(200);
    const off = await admin('principals', 'deactivate', botId);
    expect(off.stdout).toContain(`${botId}  agent  bot  deactivated`);
    expect((await registry(second, '/api/v1/scopes')).status).toBe(403);
    await admin('principals', 'activate', botId);
    expect((await registry(second, '/api/v1/scopes')).status).toBe(200);
    const noRoles = await admin('principals', 'update', botId, '--no-roles', '--json');
    expect(noRoles.json()).toMatchObject({ roles: [] });
  });

  it("sets a human's console sign-in, then prints a one-time link for it; an agent is refused with exit 1", async () => {
    const made = await platform(
      'principals',
      'create',
      '--kind',
      'human',
      '--name',
      'Grace',
      '--tenant',
      tenantId,
      '--console-permission',
      'read',
      '--console-permission',
      'approve',
      '--oidc-issuer',
      'https://login.example.com',
      '--oidc-subject',
      'grace',
      '--json',
    );
    expect(made.json()).toMatchObject({
      console_permissions: ['read', 'approve'],
      oidc_issuer: 'https://login.example.com',
      oidc_subject: 'grace',
    });
    const human = made.json<{ id: string }>().id;
    const notTenants = await admin('principals', 'update', human, '--no-oidc');
    expect(notTenants).toMatchObject({ code: 1, stderr: expect.stringContaining('Missing permission: platform_admin') });
    const changed = await platform('principals', 'update', human, '--no-oidc', '--console-permission', 'read', '--json');
    expect(changed.json()).toMatchObject({ console_permissions: ['read'], oidc_issuer: null, oidc_subject: null });
    expect((await registry(adminKey, `/api/v1/principals/${human}`)).body).toMatchObject({
      console_permissions: ['read'],
      oidc_issuer: null,
    });
    const half = await admin('principals', 'update', human, '--oidc-issuer', 'https://login.example.com');
    expect(half).toMatchObject({ code: 2, stderr: expect.stringContaining('--oidc-issuer and --oidc-subject go together') });
    const link = await admin('console', 'link', '--principal', human);
    expect(link.code).toBe(0);
    const [url, note] = link.stdout.trimEnd().split('\n');
    expect(url).toMatch(new RegExp(`^${h.url}/console/auth/link/[A-Za-z0-9_-]{43}$`));
    expect(note).toMatch(/^\(one use, valid until \S+\)$/);
    expect(await (await fetch(url!)).text()).toContain('<strong>Grace</strong>');
    const bot = (await admin('principals', 'create', '--kind', 'agent', '--name', 'bot', '--json')).json<{ id: string }>().id;
    const refused = await admin('console', 'link', '--principal', bot);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('human principals only') });
  });

  it("reports refusals with exit 1 and the registry's detail, usage errors with exit 2", async () => {
    const forbidden = await admin('tenants', 'create', `other-${randomUUID().slice(0, 8)}`);
    expect(forbidden).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('the registry service refused: 403 forbidden: Missing permission: platform_admin'),
    });
    const missing = await admin('api-keys', 'revoke', 'key-missing', '--json');
    expect(missing.code).toBe(1);
    expect(missing.json()).toEqual({ error: expect.stringContaining('404 not_found'), exit_code: 1 });
    const badPermission = await admin('api-keys', 'create', '--principal', 'agn-x', '--permission', 'superuser');
    expect(badPermission).toMatchObject({ code: 1, stderr: expect.stringContaining('400 bad_request') });
    expect((await admin('principals', 'create', '--kind', 'robot', '--name', 'r')).code).toBe(2);
    expect((await admin('principals', 'update', 'agn-x')).stderr).toContain('nothing to change');
    expect((await admin('tenants', 'update', tenantId, '--settings', '[1]')).stderr).toContain('the settings must be a JSON object');
    expect((await cli({ ARBITER_REGISTRY_URL: h.url })('tenants', 'list')).stderr).toContain('no API key for the registry service');
  });
});
