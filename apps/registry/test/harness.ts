import { generateApiKey } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import type { Logger } from 'pino';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import request from 'supertest';
import { loadRegistryConfig, type RegistryConfig } from '../src/config';
import { startRegistry, type RunningRegistry } from '../src/server';
import type { RegistryDeps } from '../src/context';

// testTimeout in the shared preset is a global Jest option that projects ignore; hooks that start
// a registry and seed it need more than Jest's 5 s default on a busy two-core machine.
jest.setTimeout(60_000);

export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789';

export interface RegistryHarness {
  registry: RunningRegistry;
  url: string;
  adminKey: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * A real registry on a fresh database, listening on a free port, with a platform admin key.
 * `deps` replaces some of its I/O (e.g. `resolveHost`, the DNS answers for webhook hosts).
 */
export async function startTestRegistry(
  env: Record<string, string> = {},
  deps?: RegistryDeps,
  logger: Logger = createLogger('registry', 'silent'),
): Promise<RegistryHarness> {
  const db = await createTestDatabase('registry');
  const adminKey = generateApiKey();
  const config: RegistryConfig = loadRegistryConfig({
    PORT: '0',
    DATABASE_URL_REGISTRY: db.url,
    REDIS_URL: testRedisUrl(),
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    BOOTSTRAP_ADMIN_KEY: adminKey,
    KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
  const registry = await startRegistry(config, logger, deps);
  return {
    registry,
    url: registry.url,
    adminKey,
    databaseUrl: db.url,
    async stop() {
      await registry.close();
      await db.drop();
    },
  };
}

export interface TenantFixture {
  tenant: { id: string; slug: string };
  admin: { principalId: string; key: string };
}

/** Creates a tenant with an admin principal and key, through the public API. */
export async function createTenantWithAdmin(h: RegistryHarness, slug: string, settings: object = {}): Promise<TenantFixture> {
  const auth = { Authorization: `Bearer ${h.adminKey}` };
  const tenant = await request(h.url).post('/api/v1/tenants').set(auth).send({ name: slug, slug, settings }).expect(201);
  const principal = await request(h.url)
    .post('/api/v1/principals')
    .set(auth)
    .send({ kind: 'human', name: `${slug}-admin`, tenant_id: tenant.body.id })
    .expect(201);
  const key = await request(h.url)
    .post('/api/v1/api-keys')
    .set(auth)
    .send({ principal_id: principal.body.id, permissions: ['admin'], tenant_id: tenant.body.id })
    .expect(201);
  return { tenant: tenant.body, admin: { principalId: principal.body.id, key: key.body.key } };
}

/** A principal with a key of the given permissions inside a tenant, made by the tenant's admin. */
export async function createPrincipalWithKey(
  h: RegistryHarness,
  adminKey: string,
  opts: { kind?: 'agent' | 'human'; permissions: string[]; roles?: string[]; scope_ids?: string[] },
): Promise<{ principalId: string; key: string; keyId: string }> {
  const auth = { Authorization: `Bearer ${adminKey}` };
  const principal = await request(h.url)
    .post('/api/v1/principals')
    .set(auth)
    .send({ kind: opts.kind ?? 'agent', name: 'p', roles: opts.roles })
    .expect(201);
  const key = await request(h.url)
    .post('/api/v1/api-keys')
    .set(auth)
    .send({ principal_id: principal.body.id, permissions: opts.permissions, scope_ids: opts.scope_ids })
    .expect(201);
  return { principalId: principal.body.id, key: key.body.key, keyId: key.body.id };
}
