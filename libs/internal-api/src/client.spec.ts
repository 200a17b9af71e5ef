import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_TOKEN_HEADER, RegistryInternalClient } from './client';
import { RegistryRejectedError, RegistryUnavailableError } from './errors';

interface Seen {
  method: string;
  url: string;
  token: string | undefined;
  body: unknown;
}

/** A registry stand-in over real HTTP answering `answer(req)`; records what it was sent. */
async function stubRegistry(answer: (seen: Seen) => { status: number; body?: unknown; text?: string; hang?: boolean }) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const s: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        token: req.headers[INTERNAL_TOKEN_HEADER] as string | undefined,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(s);
      const a = answer(s);
      if (a.hang) return;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.text ?? (a.body === undefined ? '' : JSON.stringify(a.body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe(RegistryInternalClient.name, () => {
  it('never follows a redirect, which would carry the service token elsewhere: unavailable', async () => {
    const elsewhere = await stubRegistry(() => ({ status: 200, body: {} }));
    const moved = await stubRegistry(() => ({ status: 200 }));
    const redirecting = http.createServer((_req, res) =>
      res.writeHead(308, { location: `${elsewhere.url}/internal/v1/tenants/tnt-1/state` }).end(),
    );
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    try {
      const sut = new RegistryInternalClient({
        baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        token: 'secret-token-0123456789',
      });
      await expect(sut.state('tnt-1')).rejects.toThrow(RegistryUnavailableError);
      await expect(sut.state('tnt-1')).rejects.toThrow(/308 \(a redirect, not followed\)/);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      redirecting.close();
      await Promise.all([elsewhere.close(), moved.close()]);
    }
  });

  let stub: Awaited<ReturnType<typeof stubRegistry>> | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });
  const client = (timeoutMs = 2_000) =>
    new RegistryInternalClient({ baseUrl: `${stub!.url}/`, token: 'token-0123456789abcdef', timeoutMs });

  it('sends the service token, typed paths and bodies, and answers the data', async () => {
    stub = await stubRegistry(() => ({ status: 200, body: { fanned_out: 1, deliveries_created: 2, dispatch: [] } }));
    const sut = client();
    expect(await sut.relay(50)).toEqual({ fanned_out: 1, deliveries_created: 2, dispatch: [] });
    await sut.ruleVersion('rv-1', 'tnt-1');
    expect(stub.seen).toEqual([
      { method: 'POST', url: '/internal/v1/outbox/relay', token: 'token-0123456789abcdef', body: { limit: 50 } },
      { method: 'GET', url: '/internal/v1/rule-versions/rv-1?tenant_id=tnt-1', token: 'token-0123456789abcdef', body: undefined },
    ]);
    expect(sut.requests).toBe(2);
  });

  it('answers null for a read the registry answers 404 or 400, and unavailable for any other failure', async () => {
    let status = 404;
    stub = await stubRegistry(() => ({ status, body: { detail: 'no' } }));
    const sut = client();
    expect(await sut.state('tnt-1')).toBeNull();
    status = 400;
    expect(await sut.stateHash('tnt-1')).toBeNull();
    expect(await sut.tenantBySlug('acme')).toBeNull();
    for (status of [401, 409, 429, 500, 503]) {
      await expect(sut.state('tnt-1')).rejects.toMatchObject({ name: 'RegistryUnavailableError', code: 'registry_unavailable', status });
    }
  });

  it('maps writes: 5xx, 401 and 429 unavailable, another 4xx rejected with the registry detail', async () => {
    let status = 503;
    stub = await stubRegistry(() => ({ status, body: { detail: 'target_ids is required' } }));
    const sut = client();
    const grant = { target_ids: ['rul-1'], applies_to_scope: {}, expires_at: '2030-01-01T00:00:00Z' };
    for (status of [500, 503, 401, 429]) await expect(sut.createGrant('tnt-1', grant)).rejects.toBeInstanceOf(RegistryUnavailableError);
    status = 422;
    const err = await sut.createGrant('tnt-1', grant).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryRejectedError);
    expect(err).toMatchObject({ status: 422, detail: 'target_ids is required', code: 'registry_rejected' });
    expect(stub.seen.at(-1)!.body).toEqual({ override_type: 'approval_grant', ...grant });
  });

  it('tells a new event (201) from one recorded before (200)', async () => {
    let status = 201;
    stub = await stubRegistry(() => ({ status, body: { id: 'evt-1' } }));
    const sut = client();
    const event = { type: 'approval.requested' as const, entity_type: 'approval', entity_id: 'apr-1', data: {}, idempotency_key: 'k' };
    expect(await sut.recordEvent('tnt-1', event)).toEqual({ event: { id: 'evt-1' }, created: true });
    status = 200;
    expect(await sut.recordEvent('tnt-1', event)).toEqual({ event: { id: 'evt-1' }, created: false });
    expect(stub.seen[0].body).toEqual({ source: 'verdict', ...event });
  });

  it('finds an earlier grant of an approval in the tenant state', async () => {
    stub = await stubRegistry(() => ({ status: 200, body: { overrides: [{ id: 'ovr-1', approval_id: 'apr-1' }] } }));
    expect(await client().findGrant('tnt-1', 'apr-1')).toMatchObject({ id: 'ovr-1' });
    expect(await client().findGrant('tnt-1', 'apr-2')).toBeNull();
  });

  it('is unreachable when nothing answers, when it times out, and when the caller aborts', async () => {
    const refused = new RegistryInternalClient({ baseUrl: 'http://127.0.0.1:9', token: 't', timeoutMs: 1_000 });
    await expect(refused.attempt('dlv-1', 1)).rejects.toMatchObject({ name: 'RegistryUnavailableError', code: 'registry_unreachable' });
    stub = await stubRegistry(() => ({ status: 200, hang: true }));
    await expect(client(50).introspect('0'.repeat(64))).rejects.toMatchObject({ code: 'registry_unreachable' });
    const abort = new AbortController();
    const pending = client().attempt('dlv-1', 1, abort.signal);
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'registry_unreachable' });
  });
});
