import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { LedgerInternalClient, LedgerRejectedError, type ServiceSeal } from '@arbiter/internal-api';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { createLedgerTenant, ledgerClient, rawRequest, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';

const GENESIS = `sha256:${'0'.repeat(64)}`;
const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };

/**
 * fact_hash recomputed without the service's code (docs/ledger-formats.md "fact_hash"): the RFC 8785
 * text of the seven members written out by hand (these payloads are flat objects of strings, whose
 * members are given here in sorted order), hashed with node:crypto.
 */
function expectedFactHash(
  f: {
    fact_id: string;
    stream_id: string;
    tenant_id: string;
    actor: string;
    sealed_at_ms: number;
    sealed_by: string | null;
    prev_hash: string;
  },
  payload: Record<string, string>,
) {
  const payloadJcs = `{${Object.keys(payload)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(payload[k])}`)
    .join(',')}}`;
  const text =
    `{"actor":${JSON.stringify(f.actor)},"custom_payload":${payloadJcs},"fact_id":${JSON.stringify(f.fact_id)},` +
    `"prev_hash":${JSON.stringify(f.prev_hash)},"sealed_at_ms":${f.sealed_at_ms},` +
    // sealed_by is a member when the fact has one (docs/ledger-formats.md "fact_hash").
    (f.sealed_by === null ? '' : `"sealed_by":${JSON.stringify(f.sealed_by)},`) +
    `"stream_id":${JSON.stringify(f.stream_id)},` +
    `"tenant_id":${JSON.stringify(f.tenant_id)}}`;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** POST /internal/v1/seals (docs/ledger-formats.md "Service seals"), through HTTP against real PostgreSQL. */
describe('ledger: service seals through the internal API', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let other: LedgerTenant;
  let sut: LedgerInternalClient;
  let run = 0;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    [t, other] = await Promise.all([createLedgerTenant(stack, GENEROUS), createLedgerTenant(stack, GENEROUS)]);
    sut = new LedgerInternalClient({ baseUrl: stack.ledger.url, token: TEST_INTERNAL_TOKEN });
    // Rows the database refuses on their own (the seal queue isolates them): a constraint (not the
    // caller's values: 500) and a data exception (the caller's values: 400).
    await stack.db('ledger').query(`ALTER TABLE facts ADD CONSTRAINT test_no_poison CHECK (actor <> 'poison')`);
    await stack.db('ledger').query(`CREATE FUNCTION test_refuse_data() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.actor = 'bad-data' THEN RAISE EXCEPTION 'test data exception' USING ERRCODE = '22023'; END IF; RETURN NEW; END $$`);
    await stack
      .db('ledger')
      .query(`CREATE TRIGGER test_refuse_data BEFORE INSERT ON facts FOR EACH ROW EXECUTE FUNCTION test_refuse_data()`);
  });
  afterAll(() => stack.stop());

  const internal = (body: unknown, token: string | null = TEST_INTERNAL_TOKEN) => {
    const r = request(stack.ledger.url).post('/internal/v1/seals');
    return (token === null ? r : r.set('X-Internal-Token', token)).send(body as object);
  };
  const consultation = (tenant: LedgerTenant, i: number, extra: Partial<ServiceSeal> = {}): ServiceSeal => ({
    stream_id: `arbiter.${tenant.tenantId}.consultations`,
    tenant_id: tenant.tenantId,
    actor: 'service:verdict',
    custom_payload: { consultation_id: `cns-${run}-${i}`, verdict: 'allowed', decided_at: '2026-12-01T00:00:00.000Z' },
    client_ref: `cns-${run}-${i}`,
    ...extra,
  });
  const factCount = async () => (await stack.db('ledger').query<{ n: number }>('SELECT count(*)::int AS n FROM facts')).rows[0].n;
  const listFacts = async (tenant: LedgerTenant, streamId: string) =>
    (await ledgerClient(stack.ledger.url, tenant.readOnlyKey).get(`/streams/${streamId}/facts?limit=1000`).expect(200)).body as {
      count: number;
      facts: Array<{ fact_id: string }>;
    };

  beforeEach(() => {
    run++;
  });

  it('seals a batch in request order, chained and hashed as any fact, and the tenant read key reads it', async () => {
    // A fresh stream per test: a stream id of its own tenant (the approvals stream here).
    const seals = Array.from({ length: 40 }, (_, i) =>
      consultation(t, i, { stream_id: `arbiter.${t.tenantId}.approvals`, client_ref: `apr-${run}-${i}:approved` }),
    );
    const answer = await sut.seal(seals);
    expect(answer.results).toHaveLength(40);
    answer.results.forEach((r, i) =>
      expect(r).toEqual({
        ok: true,
        fact_id: expect.stringMatching(/^fct-[0-9a-f]{24}$/),
        stream_id: seals[i].stream_id,
        seq: i + 1,
        fact_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        created: true,
      }),
    );

    const reader = ledgerClient(stack.ledger.url, t.readOnlyKey);
    const list = await listFacts(t, seals[0].stream_id);
    expect(list.count).toBe(40);
    expect(list.facts.map((f) => f.fact_id)).toEqual(answer.results.map((r) => (r.ok ? r.fact_id : null)));
    let prev = GENESIS;
    let parent: string | null = null;
    for (const [i, result] of answer.results.entries()) {
      if (!result.ok) throw new Error('unreachable');
      const fact = (await reader.get(`/facts/${result.fact_id}`).expect(200)).body;
      expect(fact).toMatchObject({
        stream_id: seals[i].stream_id,
        tenant_id: t.tenantId,
        actor: 'service:verdict',
        sealed_by: 'service:internal',
        custom_payload: seals[i].custom_payload,
        client_ref: seals[i].client_ref,
        sequence: i + 1,
        prev_hash: prev,
        parent_fact_id: parent,
      });
      expect(fact.fact_hash).toBe(result.fact_hash);
      expect(result.fact_hash).toBe(expectedFactHash(fact, seals[i].custom_payload as Record<string, string>));
      prev = fact.fact_hash;
      parent = fact.fact_id;
    }
    expect((await reader.post(`/streams/${seals[0].stream_id}/verify`).expect(200)).body).toMatchObject({
      valid: true,
      facts_verified: 40,
    });
  });

  it('answers a repeated batch with the original facts (created false) and seals nothing new', async () => {
    const seals = [consultation(t, 0), consultation(t, 1), consultation(t, 2)];
    const first = await sut.seal(seals);
    const before = await factCount();
    // Again, and again reordered with a new seal among them: the retries answer their facts.
    const again = await sut.seal(seals);
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, created: false })));
    const mixed = await sut.seal([seals[2], consultation(t, 3), seals[0]]);
    expect(await factCount()).toBe(before + 1);
    expect(mixed.results[0]).toEqual({ ...first.results[2], created: false });
    expect(mixed.results[1]).toMatchObject({ ok: true, created: true });
    expect(mixed.results[2]).toEqual({ ...first.results[0], created: false });
    // The same client_ref twice in one batch: one fact.
    const twice = await sut.seal([consultation(t, 4), consultation(t, 4)]);
    expect(twice.results[1]).toEqual({ ...twice.results[0], created: false });
    expect(await factCount()).toBe(before + 2);
  });

  it('seals one batch into several tenants and streams, each stream in its own order', async () => {
    const seals = [
      consultation(t, 0),
      consultation(other, 0),
      consultation(t, 1, { stream_id: `arbiter.${t.tenantId}.rules`, actor: 'service:registry', client_ref: `rv-${run}-1` }),
      consultation(other, 1),
      consultation(t, 2),
    ];
    const { results } = await sut.seal(seals);
    expect(results.every((r) => r.ok && r.created)).toBe(true);
    const byStream = new Map<string, number[]>();
    results.forEach((r) => r.ok && byStream.set(r.stream_id, [...(byStream.get(r.stream_id) ?? []), r.seq]));
    for (const seqs of byStream.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Each tenant owns its streams: the other tenant's read key does not see them.
    const theirs = await ledgerClient(stack.ledger.url, other.readOnlyKey)
      .get(`/streams/arbiter.${other.tenantId}.consultations/facts?limit=1000`)
      .expect(200);
    expect(theirs.body.facts.map((f: { fact_id: string }) => f.fact_id)).toEqual(
      expect.arrayContaining([results[1], results[3]].map((r) => (r.ok ? r.fact_id : ''))),
    );
    await ledgerClient(stack.ledger.url, other.readOnlyKey).get(`/streams/arbiter.${t.tenantId}.rules/facts`).expect(404);
  });

  describe('refuses an invalid batch whole with 400, sealing nothing', () => {
    const big = { blob: 'x'.repeat(70_000) };
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const cases: Array<[string, (s: ServiceSeal) => Record<string, unknown>, string]> = [
      ['no stream_id', ({ stream_id: _s, ...rest }) => rest, 'stream_id'],
      ['a stream outside arbiter.*', (s) => ({ ...s, stream_id: `orders.${s.tenant_id}` }), 'stream_id'],
      ['an unknown audit stream kind', (s) => ({ ...s, stream_id: `arbiter.${s.tenant_id}.payments` }), 'stream_id'],
      ['a stream of another tenant', (s) => ({ ...s, stream_id: `arbiter.${other.tenantId}.consultations` }), 'stream_id'],
      ['no tenant_id', ({ tenant_id: _t, ...rest }) => rest, 'tenant_id'],
      ['an empty actor', (s) => ({ ...s, actor: '' }), 'actor'],
      ['an actor of 257 characters', (s) => ({ ...s, actor: 'a'.repeat(257) }), 'actor'],
      ['U+0000 in actor', (s) => ({ ...s, actor: 'service:\u0000' }), 'actor'],
      ['no client_ref', ({ client_ref: _c, ...rest }) => rest, 'client_ref'],
      ['a client_ref of 256 characters', (s) => ({ ...s, client_ref: 'r'.repeat(256) }), 'client_ref'],
      ['custom_payload not an object', (s) => ({ ...s, custom_payload: [1] }), 'custom_payload'],
      ['custom_payload over 64 KiB', (s) => ({ ...s, custom_payload: big }), 'custom_payload'],
      ['custom_payload nested 41 deep', (s) => ({ ...s, custom_payload: deep }), 'custom_payload'],
      ['a lone surrogate in the payload', (s) => ({ ...s, custom_payload: { note: 'a\uD800b' } }), 'custom_payload.note'],
      ['an unknown member', (s) => ({ ...s, sealed_by: 'x' }), 'sealed_by'],
    ];

    it.each(cases)('%s names seals[2].<field>', async (_label, broken, field) => {
      const before = await factCount();
      const seals: unknown[] = [consultation(t, 0), consultation(t, 1), broken(consultation(t, 2)), consultation(t, 3)];
      const res = await internal({ seals }).expect(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^seals\[2\]: /),
        details: { fields: [{ field: `seals[2].${field}`, message: res.body.message }] },
      });
      expect(await factCount()).toBe(before);
    });

    it('names every invalid seal in details.fields, the first in the message', async () => {
      const res = await internal({
        seals: [
          consultation(t, 0),
          { ...consultation(t, 1), actor: '' },
          consultation(t, 2),
          { ...consultation(t, 3), client_ref: undefined },
        ],
      }).expect(400);
      expect(res.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['seals[1].actor', 'seals[3].client_ref']);
      expect(res.body.message).toMatch(/^seals\[1\]: .*\(2 of 4 seals are invalid/);
    });

    it.each([
      ['no seals', { seals: [] }, 'seals'],
      [
        '1001 seals',
        {
          seals: Array.from({ length: 1001 }, (_, i) => ({
            stream_id: 'arbiter.tnt-x.rules',
            tenant_id: 'tnt-x',
            actor: 's',
            custom_payload: {},
            client_ref: `r${i}`,
          })),
        },
        'seals',
      ],
      ['seals not an array', { seals: {} }, 'seals'],
      ['no seals member', {}, 'seals'],
      ['an unknown top-level member', { seals: [], batch: 1 }, 'batch'],
    ])('refuses %s', async (_label, body, field) => {
      const before = await factCount();
      const res = await internal(body).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field }] } });
      expect(await factCount()).toBe(before);
    });

    it('maps the refusal to LedgerRejectedError in the client', async () => {
      const err = await sut.seal([{ ...consultation(t, 0), stream_id: 'orders' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LedgerRejectedError);
      expect(err).toMatchObject({ status: 400, detail: expect.stringMatching(/^seals\[0\]: stream_id must be arbiter\./) });
    });
  });

  it('answers ok:false for a seal the database refuses on its own and commits the others in order', async () => {
    const seals = Array.from({ length: 12 }, (_, i) => consultation(t, i));
    seals[4] = { ...seals[4], actor: 'poison' };
    seals[9] = { ...seals[9], actor: 'bad-data' };
    const { results } = await sut.seal(seals);
    expect(results[4]).toEqual({
      ok: false,
      status: 500,
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^The database refused this seal \(error id [0-9a-f-]{36}\)$/),
    });
    expect(results[9]).toEqual({
      ok: false,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('test data exception'),
    });
    const good = results.filter((_, i) => i !== 4 && i !== 9);
    expect(good.every((r) => r.ok && r.created)).toBe(true);
    const seqs = good.map((r) => (r.ok ? r.seq : 0));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(10);
    const streamId = seals[0].stream_id;
    const verified = await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/verify`).expect(200);
    expect(verified.body).toMatchObject({ valid: true });
    // Nothing was stored under the refused seal's client_ref: once fixed, it is a first seal.
    const retry = await sut.seal([{ ...seals[4], actor: 'service:verdict' }]);
    expect(retry.results[0]).toMatchObject({ ok: true, created: true });
  });

  describe('the service credential', () => {
    it('answers 401 without the token, with a wrong one, and with a tenant API key, on every internal path', async () => {
      const body = { seals: [consultation(t, 0)] };
      for (const res of [
        await internal(body, null),
        await internal(body, 'wrong-token-wrong-token'),
        await request(stack.ledger.url).post('/internal/v1/seals').set('X-API-Key', t.adminKey).send(body),
        await request(stack.ledger.url).post('/internal/v1/seals').set('X-API-Key', stack.registry.adminKey).send(body),
        await request(stack.ledger.url).get('/internal/v1/nothing-here').set('X-API-Key', t.adminKey),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Missing or invalid internal token' });
      }
    });

    it('takes no rate-limit bucket with the token; a request without it is limited by its address', async () => {
      const ok = await internal({ seals: [consultation(t, 0)] }).expect(200);
      expect(ok.headers['x-ratelimit-limit']).toBeUndefined();
      const refused = await internal({ seals: [consultation(t, 0)] }, 'wrong-token-wrong-token').expect(401);
      expect(refused.headers['x-ratelimit-limit']).toBe('1000');
    });

    it('counts service seals apart on /metrics', async () => {
      await sut.seal([consultation(t, 0)]);
      await sut.seal([consultation(t, 0)]);
      const text = (await request(stack.ledger.url).get('/metrics').expect(200)).text;
      expect(text).toMatch(/arbiter_ledger_seals_total\{[^}]*caller="service"[^}]*result="created"[^}]*\} [1-9]/);
      expect(text).toMatch(/arbiter_ledger_seals_total\{[^}]*caller="service"[^}]*result="replayed"[^}]*\} [1-9]/);
    });
  });

  describe('tenant keys on arbiter.* streams', () => {
    // The two doors of POST /streams/{id}/facts: the fast lane (plain JSON) and the express/tsoa route (gzip).
    const doors = [
      ['the fast lane', (body: Buffer) => ({ body, headers: {} })],
      ['the tsoa route', (body: Buffer) => ({ body: gzipSync(body), headers: { 'Content-Encoding': 'gzip' } })],
    ] as const;

    describe.each(doors)('on %s', (_door, encode) => {
      const seal = (key: string, streamId: string, body: unknown) => {
        const { body: bytes, headers } = encode(Buffer.from(JSON.stringify(body)));
        return rawRequest(stack.ledger.url, `/streams/${streamId}/facts`, { body: bytes, headers: { 'X-API-Key': key, ...headers } });
      };

      it('refuses a seal into the audit streams (and anything under arbiter.) with 403, before reading the body', async () => {
        const before = await factCount();
        for (const streamId of [`arbiter.${t.tenantId}.consultations`, `arbiter.${t.tenantId}.anything`, 'arbiter.x']) {
          for (const body of [{ tenant_id: t.tenantId, actor: 'agent:x', custom_payload: { n: 1 } }, { not: 'a seal body' }]) {
            const res = await seal(t.adminKey, streamId, body);
            expect(res.status).toBe(403);
            expect(res.body).toEqual({ code: 'FORBIDDEN', message: expect.stringContaining('arbiter.') });
          }
        }
        expect(await factCount()).toBe(before);
      });

      it('still checks the key first: 401 without a valid key, 403 for a missing permission', async () => {
        expect((await seal('ak-00000000000000000000000000000000', `arbiter.${t.tenantId}.consultations`, {})).status).toBe(401);
        const res = await seal(t.readOnlyKey, `arbiter.${t.tenantId}.consultations`, {});
        expect(res.status).toBe(403);
        expect(res.body.details).toEqual({ permission: 'seal' });
      });

      it('lets the tenant seal its other streams as before', async () => {
        const res = await seal(t.writerKey, `arbiterx-${run}`, { tenant_id: t.tenantId, actor: 'agent:x', custom_payload: { n: 1 } });
        expect(res.status).toBe(201);
      });
    });

    it("lets the tenant's read key list, fetch and verify the service's facts", async () => {
      const { results } = await sut.seal([consultation(t, 0), consultation(t, 1)]);
      const reader = ledgerClient(stack.ledger.url, t.readOnlyKey);
      const streamId = `arbiter.${t.tenantId}.consultations`;
      const list = await listFacts(t, streamId);
      expect(list.facts.map((f) => f.fact_id)).toEqual(expect.arrayContaining(results.map((r) => (r.ok ? r.fact_id : ''))));
      for (const r of results) if (r.ok) await reader.get(`/facts/${r.fact_id}`).expect(200);
      expect((await reader.post(`/streams/${streamId}/verify`).expect(200)).body).toMatchObject({ valid: true });
    });
  });
});
