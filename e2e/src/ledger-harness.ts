import http from 'node:http';
import { Pool } from 'pg';
import request from 'supertest';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
} from '../../apps/registry/test/harness';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';

/** A real registry (for keys) and one or more ledger replicas sharing one fresh database. */
export interface LedgerStack {
  registry: RegistryHarness;
  ledger: RunningLedger;
  url: string;
  /** The environment a ledger replica of this stack runs with (also for spawned processes). */
  env: Record<string, string>;
  /** Superuser pool on the ledger database: the tests' way to tamper with stored facts. */
  db: Pool;
  startReplica(env?: Record<string, string>): Promise<RunningLedger>;
  stop(): Promise<void>;
}

export async function startLedgerStack(opts: { env?: Record<string, string> } = {}): Promise<LedgerStack> {
  const registry = await startTestRegistry();
  const ledgerDb = await createTestDatabase('ledger');
  const env: Record<string, string> = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REGISTRY_URL: registry.url,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    DATABASE_URL_LEDGER: ledgerDb.url,
    KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
    ...opts.env,
  };
  const replicas: RunningLedger[] = [];
  const startReplica = async (extra: Record<string, string> = {}) => {
    const replica = await startLedger(loadLedgerConfig({ ...env, ...extra }), createLogger('ledger', 'silent'));
    replicas.push(replica);
    return replica;
  };
  const ledger = await startReplica();
  const db = new Pool({ connectionString: ledgerDb.url, max: 2 });
  return {
    registry,
    ledger,
    url: ledger.url,
    env,
    db,
    startReplica,
    async stop() {
      await Promise.all(replicas.map((r) => r.close()));
      await db.end();
      await Promise.all([registry.stop(), ledgerDb.drop()]);
    },
  };
}

export interface LedgerTenant {
  tenantId: string;
  slug: string;
  /** admin: every permission of the tenant */
  adminKey: string;
  /** seal and read */
  writerKey: string;
  sealOnlyKey: string;
  readOnlyKey: string;
}

let tenantCounter = 0;

/** A tenant with keys of each kind; settings may carry rate_limit (the enterprise override). */
export async function createLedgerTenant(stack: LedgerStack, settings: object = {}): Promise<LedgerTenant> {
  const slug = `ledger-t${++tenantCounter}-${Math.random().toString(16).slice(2, 8)}`;
  const t = await createTenantWithAdmin(stack.registry, slug, settings);
  const key = (permissions: string[]) => createPrincipalWithKey(stack.registry, t.admin.key, { permissions }).then((p) => p.key);
  const [writerKey, sealOnlyKey, readOnlyKey] = await Promise.all([key(['seal', 'read']), key(['seal']), key(['read'])]);
  return { tenantId: t.tenant.id, slug, adminKey: t.admin.key, writerKey, sealOnlyKey, readOnlyKey };
}

/** Supertest against a ledger URL with a key. */
export function ledgerClient(url: string, key?: string) {
  const withKey = <T extends request.Test>(r: T): T => (key ? (r.set('X-API-Key', key) as T) : r);
  return {
    get: (path: string) => withKey(request(url).get(path)),
    post: (path: string, body?: object) => {
      const r = withKey(request(url).post(path));
      return body === undefined ? r : r.send(body);
    },
  };
}

/** Seal helper: a valid body for the tenant, overridable. */
export function sealBody(tenantId: string, extra: Record<string, unknown> = {}) {
  return { tenant_id: tenantId, actor: 'agent:test', custom_payload: { n: 1 }, ...extra };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * One HTTP request with node:http, byte for byte as given: for what supertest rewrites or cannot
 * send (gzip bodies on the general path, a chosen loopback source address for per-address buckets).
 */
export function rawRequest(
  url: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; localAddress?: string } = {},
): Promise<RawAnswer> {
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
  const headers = body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...opts.headers } : { ...opts.headers };
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = http.request(new URL(path, url), { method: opts.method ?? (body ? 'POST' : 'GET'), headers, localAddress: opts.localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
