// Helpers of the ledger's end-to-end tests (on a stack of ./stack.ts): tenants with keys of each kind,
// a caller of the ledger, seal bodies, and requests byte for byte.
import http from 'node:http';
import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin, type RegistryHarness } from '../../apps/registry/test/harness';

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
export async function createLedgerTenant(stack: { registry: RegistryHarness }, settings: object = {}): Promise<LedgerTenant> {
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
  const headers = body
    ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...opts.headers }
    : { ...opts.headers };
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = http.request(
      new URL(path, url),
      { method: opts.method ?? (body ? 'POST' : 'GET'), headers, localAddress: opts.localAddress, agent: false },
      (res) => {
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
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
