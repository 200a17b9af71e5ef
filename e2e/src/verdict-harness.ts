// Helpers of the verdict gateway's end-to-end tests (on a stack of ./stack.ts): tenants, scopes and
// rules made through the registry's public API, a caller of the gateway, and a check of responses
// against the committed OpenAPI.
import request, { type Response } from 'supertest';
import { openApiValidator } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, type RegistryHarness } from '../../apps/registry/test/harness';
import type { RunningVerdict } from '../../apps/verdict/src/server';
import spec from '../../apps/verdict/openapi.json';

jest.setTimeout(60_000);

/** The scope_schema most tests use. */
export const SCOPE_SCHEMA = {
  fields: {
    region: { allowed_values: ['eu', 'us'] },
    env: { allowed_values: ['prod', 'staging'] },
    tier: { type: 'number' },
  },
};

export interface VerdictTenant {
  id: string;
  slug: string;
  adminKey: string;
  adminId: string;
  /** An agent with `check` and `read`. */
  agent: { id: string; key: string };
  /** An active human principal (no key needed): the on_behalf_of of tests. */
  humanId: string;
}

export async function createVerdictTenant(
  stack: { registry: RegistryHarness },
  slug: string,
  settings: object = { scope_schema: SCOPE_SCHEMA },
): Promise<VerdictTenant> {
  const t = await createTenantWithAdmin(stack.registry, slug, settings);
  const agent = await createPrincipalWithKey(stack.registry, t.admin.key, { kind: 'agent', permissions: ['check', 'read'] });
  const human = await request(stack.registry.url)
    .post('/api/v1/principals')
    .set('Authorization', `Bearer ${t.admin.key}`)
    .send({ kind: 'human', name: `${slug}-human`, roles: ['role-cfo'] })
    .expect(201);
  return {
    id: t.tenant.id,
    slug: t.tenant.slug,
    adminKey: t.admin.key,
    adminId: t.admin.principalId,
    agent: { id: agent.principalId, key: agent.key },
    humanId: human.body.id,
  };
}

/** The registry's public API with a tenant admin key. */
export function registryApi(stack: { registry: RegistryHarness }, adminKey: string) {
  const auth = { Authorization: `Bearer ${adminKey}` };
  const url = stack.registry.url;
  return {
    async scope(name: string, selector: object = {}): Promise<string> {
      return (await request(url).post('/api/v1/scopes').set(auth).send({ name, selector }).expect(201)).body.id;
    },
    async rule(scopeId: string, body: object): Promise<{ id: string; current_version_id: string }> {
      const res = await request(url).post(`/api/v1/scopes/${scopeId}/rules`).set(auth).send(body);
      if (res.status !== 201) throw new Error(`rule not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async updateRule(scopeId: string, ruleId: string, body: object): Promise<{ id: string; current_version_id: string }> {
      return (await request(url).put(`/api/v1/scopes/${scopeId}/rules/${ruleId}`).set(auth).send(body).expect(200)).body;
    },
    async archiveRule(scopeId: string, ruleId: string): Promise<void> {
      await request(url).patch(`/api/v1/scopes/${scopeId}/rules/${ruleId}/archive`).set(auth).expect(200);
    },
    async override(scopeId: string, body: object): Promise<{ id: string }> {
      const res = await request(url).post(`/api/v1/scopes/${scopeId}/overrides`).set(auth).send(body);
      if (res.status !== 201) throw new Error(`override not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async patchPrincipal(id: string, body: object): Promise<void> {
      await request(url).patch(`/api/v1/principals/${id}`).set(auth).send(body).expect(200);
    },
    async patchTenant(tenantId: string, body: object): Promise<void> {
      await request(url).patch(`/api/v1/tenants/${tenantId}`).set(auth).send(body).expect(200);
    },
  };
}

/** A caller of the verdict gateway with one API key. */
export function verdictApi(stack: { verdict: RunningVerdict }, key: string | undefined, tenant: string) {
  const url = stack.verdict.url;
  const withKey = (t: request.Test) => (key ? t.set('X-API-Key', key) : t);
  return {
    check: (body: object, headers: Record<string, string> = {}) =>
      withKey(request(url).post(`/${tenant}/v1/check`))
        .set(headers)
        .send(body),
    resolve: (body: object, headers: Record<string, string> = {}) =>
      withKey(request(url).post(`/${tenant}/v1/resolve`))
        .set(headers)
        .send(body),
    consultation: (id: string) => withKey(request(url).get(`/${tenant}/v1/consultations/${id}`)),
    consultations: (query: Record<string, string | number> = {}) => withKey(request(url).get(`/${tenant}/v1/consultations`)).query(query),
    ruleVersion: (id: string) => withKey(request(url).get(`/v1/rule-versions/${id}`)),
    get: (path: string) => withKey(request(url).get(path)),
    post: (path: string, body?: object) => withKey(request(url).post(path)).send(body ?? {}),
  };
}

const openapi = openApiValidator(spec);

/** The body must be exactly what the committed OpenAPI document says for that path, method and status. */
export function expectConforms(res: Response, method: 'get' | 'post', path: string): void {
  const status = res.status === 201 && method === 'post' ? '201' : String(res.status);
  const key = `${method} ${path} ${status}`;
  const validate = openapi.schemaAt(path, method, { status });
  if (!validate) throw new Error(`OpenAPI documents no ${key} response`);
  if (!validate(res.body))
    throw new Error(
      `${key} does not match the OpenAPI document: ${openapi.errorsText(validate)}\n${JSON.stringify(res.body).slice(0, 1500)}`,
    );
}

/**
 * Moves a verdict approval's expires_at (or escalates_at) into the past through the test database, as if
 * the rule's approval_expires_after (escalate_after, at least 60 s) had passed: tests never wait for the clock.
 */
export async function backdateApproval(
  stack: { db(service: 'verdict'): { query(text: string, params: unknown[]): Promise<unknown> } },
  id: string,
  field: 'expires_at' | 'escalates_at',
): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  const column = field === 'expires_at' ? ', expires_at = $2::timestamptz' : '';
  await stack
    .db('verdict')
    .query(`UPDATE approvals SET body = jsonb_set(body, '{${field}}', to_jsonb($2::text))${column} WHERE id = $1`, [id, past]);
}
