import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_TOKEN_HEADER } from './client';
import { LedgerRejectedError, LedgerUnavailableError } from './errors';
import { LedgerInternalClient } from './ledger-client';

/** A ledger stand-in over real HTTP answering `status` and `body`; records what it was sent. */
async function stubLedger(answer: () => { status: number; body?: unknown; hang?: boolean }) {
  const seen: Array<{ method: string; url: string; token: string | undefined; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        token: req.headers[INTERNAL_TOKEN_HEADER] as string | undefined,
        body: raw ? JSON.parse(raw) : undefined,
      });
      const a = answer();
      if (a.hang) return;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body === undefined ? '' : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const seal = {
  stream_id: 'arbiter.tnt-1.consultations',
  tenant_id: 'tnt-1',
  actor: 'service:verdict',
  custom_payload: { consultation_id: 'cns-1' },
  client_ref: 'cns-1',
};

describe(LedgerInternalClient.name, () => {
  let stub: Awaited<ReturnType<typeof stubLedger>> | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });
  const client = (timeoutMs = 2_000) => new LedgerInternalClient({ baseUrl: `${stub!.url}/`, token: 'token-0123456789abcdef', timeoutMs });

  it('posts the batch with the service token and answers the results', async () => {
    const results = [
      { ok: true, fact_id: 'fct-1', stream_id: seal.stream_id, seq: 1, fact_hash: `sha256:${'a'.repeat(64)}`, created: true },
    ];
    stub = await stubLedger(() => ({ status: 200, body: { results } }));
    const sut = client();
    expect(await sut.seal([seal])).toEqual({ results });
    expect(stub.seen).toEqual([{ method: 'POST', url: '/internal/v1/seals', token: 'token-0123456789abcdef', body: { seals: [seal] } }]);
    expect(sut.requests).toBe(1);
  });

  it('maps 5xx, 401 and 429 to unavailable, another 4xx to rejected with the ledger message', async () => {
    let status = 500;
    stub = await stubLedger(() => ({
      status,
      body: { code: 'VALIDATION_ERROR', message: 'seals[0]: actor must be a string of 1 to 256 characters' },
    }));
    const sut = client();
    for (status of [500, 503, 401, 429]) {
      await expect(sut.seal([seal])).rejects.toMatchObject({ name: 'LedgerUnavailableError', code: 'ledger_unavailable', status });
    }
    status = 400;
    const err = await sut.seal([seal]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerRejectedError);
    expect(err).toMatchObject({ status: 400, code: 'ledger_rejected', detail: 'seals[0]: actor must be a string of 1 to 256 characters' });
  });

  it('is unreachable when nothing answers and when it times out', async () => {
    const refused = new LedgerInternalClient({ baseUrl: 'http://127.0.0.1:9', token: 't', timeoutMs: 1_000 });
    const err = await refused.seal([seal]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect(err).toMatchObject({ code: 'ledger_unreachable' });
    stub = await stubLedger(() => ({ status: 200, hang: true }));
    await expect(client(50).seal([seal])).rejects.toMatchObject({ code: 'ledger_unreachable' });
  });

  it("reads a tenant's cited fact by path and answers null for 404 (unknown, or another tenant's)", async () => {
    const cited = { fact: { fact_id: 'fct-1' }, parent: null, leaf_index: 0, tree_size: 1, inclusion_path: [], checkpoint: {} };
    let status = 200;
    stub = await stubLedger(() =>
      status === 200 ? { status, body: cited } : { status, body: { code: 'NOT_FOUND', message: 'Fact fct-2 not found' } },
    );
    const sut = client();
    expect(await sut.citedFact('tnt-1', 'fct-1')).toEqual(cited);
    status = 404;
    expect(await sut.citedFact('tnt-1', 'fct-2')).toBeNull();
    expect(stub.seen.map((r) => [r.method, r.url, r.token])).toEqual([
      ['GET', '/internal/v1/tenants/tnt-1/facts/fct-1', 'token-0123456789abcdef'],
      ['GET', '/internal/v1/tenants/tnt-1/facts/fct-2', 'token-0123456789abcdef'],
    ]);
    for (status of [400, 500])
      await expect(sut.citedFact('tnt-1', 'fct-1')).rejects.toMatchObject({ name: 'LedgerUnavailableError', status });
  });

  it('reads the ledger keys; any refusal is unavailable', async () => {
    const keys = {
      keys: [
        {
          kid: 'ledger:2026',
          kty: 'OKP',
          crv: 'Ed25519',
          x: 'x',
          alg: 'EdDSA',
          use: 'sig',
          not_before: '2026-01-01T00:00:00.000Z',
          not_after: null,
        },
      ],
    };
    let status = 200;
    stub = await stubLedger(() => (status === 200 ? { status, body: keys } : { status, body: { code: 'NOT_FOUND', message: 'no' } }));
    const sut = client();
    expect(await sut.ledgerKeys()).toEqual(keys);
    expect(stub.seen[0]).toMatchObject({ method: 'GET', url: '/internal/v1/ledger-keys' });
    status = 404;
    await expect(sut.ledgerKeys()).rejects.toMatchObject({ name: 'LedgerUnavailableError', code: 'ledger_unavailable', status: 404 });
  });
});
