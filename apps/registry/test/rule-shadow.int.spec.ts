import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';

/** A verdict gateway stand-in answering its internal shadow route; `status` switches it to an error. */
async function stubVerdict() {
  const seen: Array<{ url: string; token: string | undefined }> = [];
  const stub = { url: '', seen, status: 200, byVersion: [] as object[], close: async () => undefined as void };
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', token: req.headers['x-internal-token'] as string | undefined });
    const m = /^\/internal\/v1\/tenants\/([^/]+)\/rules\/([^/]+)\/shadow$/.exec(req.url ?? '');
    if (stub.status !== 200 || !m) {
      res
        .writeHead(stub.status === 200 ? 404 : stub.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: 'boom', message: 'boom' }));
      return;
    }
    const body = { tenant_id: m[1], rule_id: m[2], disagreements: 0, by_version: stub.byVersion };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return stub;
}

describe('rule mode and shadow disagreements (docs/verdicts.md "Shadow rules")', () => {
  let verdict: Awaited<ReturnType<typeof stubVerdict>>;
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    verdict = await stubVerdict();
    h = await startTestRegistry({ VERDICT_URL: verdict.url });
    t = await createTenantWithAdmin(h, 'shadow');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'payments', { region: 'eu' })).id;
  });
  afterAll(async () => {
    await h.stop();
    await verdict.close();
  });

  const body = (extra: object = {}) => ({
    directive: 'Transfers above 10k are blocked',
    severity: 'MANDATORY',
    conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
    ...extra,
  });

  describe('mode', () => {
    it('defaults to enforce, and is stored per version: a PUT with mode enforce promotes a shadow rule', async () => {
      expect((await admin.post(`/api/v1/scopes/${scopeId}/rules`, body()).expect(201)).body.mode).toBe('enforce');
      const created = await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'shadow' })).expect(201);
      expectConforms(created, 'post', '/api/v1/scopes/{scope_id}/rules');
      expect(created.body).toMatchObject({ mode: 'shadow', version: 1 });
      const promoted = await admin.put(`/api/v1/scopes/${scopeId}/rules/${created.body.id}`, body({ mode: 'enforce' })).expect(200);
      expect(promoted.body).toMatchObject({ mode: 'enforce', version: 2 });
      const versions = await admin.get(`/api/v1/scopes/${scopeId}/rules/${created.body.id}/versions`).expect(200);
      expect(versions.body.items.map((v: { mode: string; status: string }) => [v.mode, v.status])).toEqual([
        ['shadow', 'superseded'],
        ['enforce', 'current'],
      ]);
      // PUT semantics: an omitted mode takes its default, it is not carried over.
      await admin.put(`/api/v1/scopes/${scopeId}/rules/${created.body.id}`, body({ mode: 'shadow' })).expect(200);
      expect((await admin.put(`/api/v1/scopes/${scopeId}/rules/${created.body.id}`, body()).expect(200)).body.mode).toBe('enforce');
    });

    it('refuses another mode with 400, and the database refuses one too', async () => {
      const res = await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'audit' })).expect(400);
      expect(res.body.detail).toContain('mode');
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body()).expect(201)).body;
      await expect(
        sql(
          h,
          `INSERT INTO rule_versions (id, tenant_id, scope_id, rule_id, version, directive, severity, author, author_type, mode) VALUES ('rv-x', $1, $2, $3, 99, 'd', 'MANDATORY', 'a', 'human', 'audit')`,
          [t.tenant.id, scopeId, rule.id],
        ),
      ).rejects.toThrow(/rule_versions_mode_check/);
    });

    it('passes the mode to the verdict gateway in the tenant state', async () => {
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'shadow' })).expect(201)).body;
      const state = await request(h.url)
        .get(`/internal/v1/tenants/${t.tenant.id}/state`)
        .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
        .expect(200);
      expect(state.body.rules.find((r: { rule_id: string }) => r.rule_id === rule.id)).toMatchObject({
        mode: 'shadow',
        rule_version_id: rule.current_version_id,
      });
      const version = await request(h.url)
        .get(`/internal/v1/rule-versions/${rule.current_version_id}`)
        .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
        .expect(200);
      expect(version.body.mode).toBe('shadow');
    });
  });

  describe('GET /api/v1/rules/{rule_id}/shadow', () => {
    it("answers the verdict gateway's counts with the rule's mode, versions in version order", async () => {
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'shadow' })).expect(201)).body;
      const v2 = (await admin.put(`/api/v1/scopes/${scopeId}/rules/${rule.id}`, body({ mode: 'shadow', priority: 1 })).expect(200)).body;
      // The gateway lists versions by first disagreement; the registry orders them by version number.
      verdict.byVersion = [
        { rule_version_id: v2.current_version_id, disagreements: 3, last_at: '2026-05-02T00:00:00.000Z' },
        { rule_version_id: rule.current_version_id, disagreements: 2, last_at: '2026-05-01T00:00:00.000Z' },
      ];
      verdict.seen.length = 0;
      const res = await admin.get(`/api/v1/rules/${rule.id}/shadow`).expect(200);
      expectConforms(res, 'get', '/api/v1/rules/{rule_id}/shadow');
      expect(res.body).toEqual({
        rule_id: rule.id,
        mode: 'shadow',
        disagreements: 5,
        by_version: [
          { rule_version_id: rule.current_version_id, disagreements: 2, last_at: '2026-05-01T00:00:00.000Z' },
          { rule_version_id: v2.current_version_id, disagreements: 3, last_at: '2026-05-02T00:00:00.000Z' },
        ],
      });
      expect(verdict.seen).toEqual([{ url: `/internal/v1/tenants/${t.tenant.id}/rules/${rule.id}/shadow`, token: TEST_INTERNAL_TOKEN }]);
      verdict.byVersion = [];
    });

    it("answers 404 for an unknown rule, another tenant's rule, or a rule outside the key's scopes, without asking the gateway", async () => {
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'shadow' })).expect(201)).body;
      const other = await createTenantWithAdmin(h, 'shadow-other');
      const otherScope = (await createScope(admin, 'elsewhere')).id;
      const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'], scope_ids: [otherScope] });
      verdict.seen.length = 0;
      await admin.get('/api/v1/rules/rul-000000000000000000000000/shadow').expect(404);
      await api(h, other.admin.key).get(`/api/v1/rules/${rule.id}/shadow`).expect(404);
      await api(h, restricted.key).get(`/api/v1/rules/${rule.id}/shadow`).expect(404);
      expect(verdict.seen).toEqual([]);
    });

    it('needs read', async () => {
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body()).expect(201)).body;
      const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['write'] });
      expect((await api(h, writer.key).get(`/api/v1/rules/${rule.id}/shadow`).expect(403)).body.detail).toBe('Missing permission: read');
    });

    it('answers 503 verdict_unavailable when the gateway fails or refuses', async () => {
      const rule = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, body({ mode: 'shadow' })).expect(201)).body;
      for (const status of [500, 401, 400]) {
        verdict.status = status;
        const res = await admin.get(`/api/v1/rules/${rule.id}/shadow`).expect(503);
        expect(res.body).toEqual({ detail: expect.stringMatching(/^verdict_unavailable: /) });
      }
      verdict.status = 200;
    });
  });
});

describe('GET /api/v1/rules/{rule_id}/shadow without a reachable verdict gateway', () => {
  it.each([
    ['not configured', {}, /no VERDICT_URL/],
    ['unreachable', { VERDICT_URL: 'http://127.0.0.1:9' }, /cannot be asked right now/],
  ])('answers 503 verdict_unavailable when the gateway is %s', async (_name, env, detail) => {
    const h = await startTestRegistry(env);
    try {
      const t = await createTenantWithAdmin(h, 'shadow-503');
      const admin = api(h, t.admin.key);
      const scopeId = (await createScope(admin, 'payments')).id;
      const rule = (
        await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'd', severity: 'MANDATORY', mode: 'shadow' }).expect(201)
      ).body;
      const res = await admin.get(`/api/v1/rules/${rule.id}/shadow`).expect(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.detail).toMatch(/^verdict_unavailable: /);
      expect(res.body.detail).toMatch(detail);
    } finally {
      await h.stop();
    }
  });
});
