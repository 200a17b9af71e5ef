import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness, type TenantFixture } from './harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const verifyScript = path.join(root, 'apps/registry/scripts/verify-hash.mjs');

/** Feeds a JSON document to verify-hash.mjs, the dependency-free recomputation docs/registry.md offers. */
async function verifyHash(body: unknown): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', [verifyScript], (err, stdout) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
    );
    child.stdin?.end(JSON.stringify(body));
  });
}

describe('docs/registry.md', () => {
  let h: RegistryHarness;
  let t: TenantFixture;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'docs');
  });
  afterAll(() => h.stop());

  it('answers 405 with Allow for a method a documented path does not take, as its Errors section says', async () => {
    const res = await request(h.url).delete('/api/v1/scopes/scp-0/rules').set('Authorization', `Bearer ${t.admin.key}`).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(Object.keys(res.body)).toEqual(['detail']);
    await request(h.url).delete('/api/v1/no-such-thing').set('Authorization', `Bearer ${t.admin.key}`).expect(404);
  });

  it('walks a user through a scope, a rule updated twice, three versions and a moved normative_hash', async () => {
    const doc = await readFile(path.join(root, 'docs/registry.md'), 'utf8');
    const block = /<!-- walkthrough:start[^>]*-->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(doc);
    expect(block).not.toBeNull();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', block![1]], {
      env: { ...process.env, R: `${h.url}/api/v1`, KEY: t.admin.key },
    });
    const versions = stdout.split('\n').filter((l) => l.startsWith('{"id":"rv-'));
    expect(versions.map((l) => JSON.parse(l))).toEqual([
      { id: expect.any(String), version: 1, status: 'superseded', severity: 'REQUIRES_APPROVAL' },
      { id: expect.any(String), version: 2, status: 'superseded', severity: 'REQUIRES_APPROVAL' },
      { id: expect.any(String), version: 3, status: 'current', severity: 'MANDATORY' },
    ]);
    expect(stdout).toMatch(/normative_hash sha256:[0-9a-f]{64} -> sha256:[0-9a-f]{64}\nnormative_hash moved\n$/);
  });

  it('offers a script that recomputes normative_hash and state_hash from API output alone', async () => {
    const auth = { Authorization: `Bearer ${t.admin.key}` };
    const scopes = await request(h.url).get('/api/v1/scopes').set(auth).expect(200);
    const resolved = await request(h.url).get(`/api/v1/scopes/${scopes.body.items[0].id}/resolve`).set(auth).expect(200);
    expect(await verifyHash(resolved.body)).toEqual({ code: 0, stdout: `${resolved.body.normative_hash}\n` });
    const state = await request(h.url)
      .get(`/internal/v1/tenants/${t.tenant.id}/state`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .expect(200);
    expect(await verifyHash(state.body)).toEqual({ code: 0, stdout: `${state.body.state_hash}\n` });
    const tampered = { ...resolved.body, rules: resolved.body.rules.map((r: object) => ({ ...r, severity: 'ALLOW' })) };
    expect((await verifyHash(tampered)).code).toBe(1);
  });
});
