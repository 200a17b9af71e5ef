// Helpers of the verdict gateway's end-to-end tests: a registry and a verdict gateway on fresh
// databases (optionally with a counting, switchable proxy between them), tenants, scopes and rules
// made through the registry's public API, and a check of responses against the committed OpenAPI.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request, { type Response } from 'supertest';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, openApiValidator, testRedisUrl } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import spec from '../../apps/verdict/openapi.json';

jest.setTimeout(60_000);

/**
 * Forwards to the registry, counting requests by path (and noting the service token each carried); `down` makes it drop every connection, and
 * `rewrite` (when set) may replace the body of a 200 answer (it gets the path and the body text).
 */
export interface RegistryProxy {
  url: string;
  requests: string[];
  /** The X-Internal-Token of each request, in order (undefined when absent). */
  tokens: Array<string | undefined>;
  down: boolean;
  rewrite: ((path: string, body: string) => string) | null;
  close(): Promise<void>;
}

export async function startRegistryProxy(target: string): Promise<RegistryProxy> {
  const to = new URL(target);
  const proxy: RegistryProxy = { url: '', requests: [], tokens: [], down: false, rewrite: null, close: async () => undefined };
  const server = http.createServer((req, res) => {
    if (proxy.down) {
      req.socket.destroy();
      return;
    }
    proxy.requests.push(`${req.method} ${req.url}`);
    proxy.tokens.push(req.headers['x-internal-token'] as string | undefined);
    const upstream = http.request({ hostname: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      const rewrite = proxy.rewrite;
      if (!rewrite || up.statusCode !== 200) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      let text = '';
      up.setEncoding('utf8');
      up.on('data', (c: string) => (text += c));
      up.on('end', () => {
        const body = rewrite(req.url ?? '', text);
        res.writeHead(200, { ...up.headers, 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

export interface VerdictStack {
  registry: RegistryHarness;
  verdict: RunningVerdict;
  /** Present when started with `proxy: true`: the verdict gateway reaches the registry through it. */
  proxy?: RegistryProxy;
  verdictDbUrl: string;
  keyEncryptionKey: string;
  stop(): Promise<void>;
}

/** A registry and a verdict gateway (no ledger), each on its own fresh database, sharing the test Redis. */
export async function startVerdictStack(opts: { env?: Record<string, string>; proxy?: boolean } = {}): Promise<VerdictStack> {
  const registry = await startTestRegistry();
  const proxy = opts.proxy ? await startRegistryProxy(registry.url) : undefined;
  const db = await createTestDatabase('verdict');
  const keyEncryptionKey = generateKeyEncryptionKey();
  const verdict = await startVerdict(
    loadVerdictConfig({
      PORT: '0',
      REDIS_URL: testRedisUrl(),
      REGISTRY_URL: proxy?.url ?? registry.url,
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      DATABASE_URL_VERDICT: db.url,
      KEY_ENCRYPTION_KEY: keyEncryptionKey,
      ...opts.env,
    }),
    createLogger('verdict', 'silent'),
  );
  return {
    registry,
    verdict,
    proxy,
    verdictDbUrl: db.url,
    keyEncryptionKey,
    async stop() {
      await verdict.close();
      await proxy?.close();
      await Promise.all([registry.stop(), db.drop()]);
    },
  };
}

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

export async function createVerdictTenant(stack: { registry: RegistryHarness }, slug: string, settings: object = { scope_schema: SCOPE_SCHEMA }): Promise<VerdictTenant> {
  const t = await createTenantWithAdmin(stack.registry, slug, settings);
  const agent = await createPrincipalWithKey(stack.registry, t.admin.key, { kind: 'agent', permissions: ['check', 'read'] });
  const human = await request(stack.registry.url)
    .post('/api/v1/principals')
    .set('Authorization', `Bearer ${t.admin.key}`)
    .send({ kind: 'human', name: `${slug}-human`, roles: ['role-cfo'] })
    .expect(201);
  return { id: t.tenant.id, slug: t.tenant.slug, adminKey: t.admin.key, adminId: t.admin.principalId, agent: { id: agent.principalId, key: agent.key }, humanId: human.body.id };
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
    check: (body: object, headers: Record<string, string> = {}) => withKey(request(url).post(`/${tenant}/v1/check`)).set(headers).send(body),
    resolve: (body: object, headers: Record<string, string> = {}) => withKey(request(url).post(`/${tenant}/v1/resolve`)).set(headers).send(body),
    consultation: (id: string) => withKey(request(url).get(`/${tenant}/v1/consultations/${id}`)),
    consultations: (query: Record<string, string | number> = {}) => withKey(request(url).get(`/${tenant}/v1/consultations`)).query(query),
    ruleVersion: (id: string) => withKey(request(url).get(`/v1/rule-versions/${id}`)),
    get: (path: string) => withKey(request(url).get(path)),
    post: (path: string, body?: object) => withKey(request(url).post(path)).send(body ?? {}),
  };
}

/** Retries `fn` until it stops throwing or `ms` pass (then rethrows its last error). */
export async function within<T>(ms: number, fn: () => Promise<T>, pauseMs = 20): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  }
}

const openapi = openApiValidator(spec);

/** The body must be exactly what the committed OpenAPI document says for that path, method and status. */
export function expectConforms(res: Response, method: 'get' | 'post', path: string): void {
  const status = res.status === 201 && method === 'post' ? '201' : String(res.status);
  const key = `${method} ${path} ${status}`;
  const validate = openapi.schemaAt(path, method, { status });
  if (!validate) throw new Error(`OpenAPI documents no ${key} response`);
  if (!validate(res.body)) throw new Error(`${key} does not match the OpenAPI document: ${openapi.errorsText(validate)}\n${JSON.stringify(res.body).slice(0, 1500)}`);
}
