import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArbiterError, LedgerError, RegistryError, VerdictError } from './errors';
import { createLedgerClient } from './ledger-client';
import { createRegistryClient } from './registry-client';
import { createVerdictClient } from './verdict-client';

/** A fetch that records requests and answers one fixed response. */
function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const seen: Request[] = [];
  const fetch = async (req: Request) => {
    seen.push(req);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  };
  return { seen, fetch };
}

describe('service clients', () => {
  it('never follow a redirect, which would carry the API key to another origin, and say why', async () => {
    const reached: (string | undefined)[] = [];
    const elsewhere = http.createServer((req, res) => {
      reached.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/v1/tenants/acme/jwks`;
    const moved = http.createServer((_req, res) => res.writeHead(307, { location: target }).end());
    await new Promise<void>((r) => moved.listen(0, 'localhost', r));
    try {
      const client = createVerdictClient({
        baseUrl: `http://localhost:${(moved.address() as AddressInfo).port}`,
        apiKey: 'ak-secret',
        tenant: 'acme',
        retry: false,
      });
      const err = await client.jwks('acme').catch((e: unknown) => e);
      expect(err).toMatchObject({
        service: 'verdict',
        code: 'invalid_response',
        message: expect.stringContaining(`307, a redirect to ${target}`),
      });
      expect(reached).toEqual([]);
    } finally {
      moved.close();
      elsewhere.close();
    }
  });

  it('authenticate verdict and ledger with X-API-Key and the registry with a bearer token', async () => {
    const v = answering(200, { keys: [] });
    await createVerdictClient({ baseUrl: 'http://verdict/', apiKey: 'ak-v', fetch: v.fetch }).jwks('acme');
    expect(v.seen[0].url).toBe('http://verdict/v1/tenants/acme/jwks');
    expect(v.seen[0].headers.get('x-api-key')).toBe('ak-v');
    const r = answering(200, { kid: 'k', keys: [] });
    await createRegistryClient({ baseUrl: 'http://registry', apiKey: 'ak-r', fetch: r.fetch }).webhookKeys();
    expect(r.seen[0].headers.get('authorization')).toBe('Bearer ak-r');
  });

  it('turn a verdict error body into VerdictError with its code, details and request id', async () => {
    const a = answering(
      422,
      { code: 'insufficient_context', message: 'missing', details: { missing_fields: ['x'] } },
      { 'x-request-id': 'req-1' },
    );
    const client = createVerdictClient({ baseUrl: 'http://verdict', apiKey: 'ak', tenant: 'acme', fetch: a.fetch });
    const err = await client.check({ action: 'a', resource: 'r', scope: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VerdictError);
    expect(err).toBeInstanceOf(ArbiterError);
    expect(err).toMatchObject({
      service: 'verdict',
      status: 422,
      code: 'insufficient_context',
      details: { missing_fields: ['x'] },
      requestId: 'req-1',
    });
    expect(a.seen[0].url).toBe('http://verdict/acme/v1/check');
  });

  it('send X-Verdict-TTL when a ttl is given', async () => {
    const a = answering(200, { operation_status: 'complete' });
    await createVerdictClient({ baseUrl: 'http://verdict', tenant: 'acme', fetch: a.fetch }).check(
      { action: 'a', resource: 'r', scope: {} },
      { ttlSeconds: 60 },
    );
    expect(a.seen[0].headers.get('x-verdict-ttl')).toBe('60');
  });

  it('turn a ledger error into LedgerError with the uppercase code', async () => {
    const err = await createLedgerClient({
      baseUrl: 'http://ledger',
      fetch: answering(404, { code: 'NOT_FOUND', message: 'no bundle' }).fetch,
    })
      .getBundle('bnd-1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerError);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'ledger 404 NOT_FOUND: no bundle' });
  });

  it.each([
    [403, 'Missing permission: platform_admin', 'forbidden'],
    [403, 'not_a_valid_decider: role-cfo only', 'not_a_valid_decider'],
    [409, 'already decided', 'conflict'],
    [422, 'decision is required', 'unprocessable'],
  ])('turn a registry %i {detail: %p} into RegistryError %s', async (status, detail, code) => {
    const err = await createRegistryClient({ baseUrl: 'http://registry', fetch: answering(status, { detail }).fetch })
      .rotateWebhookKey('emergency')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect(err).toMatchObject({ status, code, message: `registry ${status} ${code}: ${detail}` });
  });

  it('report an unreachable service as network_error with status 0', async () => {
    const err = await createLedgerClient({ baseUrl: 'http://127.0.0.1:1' })
      .keys()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ service: 'ledger', status: 0, code: 'network_error' });
  });

  it("keep the status of an answer that is not the service's error body", async () => {
    const err = await createVerdictClient({ baseUrl: 'http://verdict', fetch: answering(502, '<html>bad gateway</html>').fetch })
      .jwks('x')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, code: 'internal_error', message: expect.stringContaining('bad gateway') });
  });

  it('ask whoami once for the tenant when none is configured', async () => {
    const seen: string[] = [];
    const fetch = async (req: Request) => {
      seen.push(new URL(req.url).pathname);
      const body = req.url.endsWith('/v1/whoami') ? { tenant_id: 'tnt-1', tenant_slug: 'acme' } : { items: [], next_cursor: null };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    };
    const client = createVerdictClient({ baseUrl: 'http://verdict', fetch });
    await client.listConsultations();
    await client.listConsultations({ limit: 5 });
    expect(await client.jwksUrl()).toBe('http://verdict/v1/tenants/acme/jwks');
    expect(seen).toEqual(['/v1/whoami', '/tnt-1/v1/consultations', '/tnt-1/v1/consultations']);
  });
});
