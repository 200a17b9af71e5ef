import { createHash } from 'node:crypto';
import request from 'supertest';
import { createLedgerTenant, ledgerClient, sealBody, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';

const GENESIS = `sha256:${'0'.repeat(64)}`;
/** Functional tests must not trip the standard rate limit (its own spec tests that). */
const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };

/**
 * fact_hash recomputed independently of the service (docs/ledger-formats.md):
 * the RFC 8785 text written out by hand for these flat payloads, hashed with node:crypto.
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
  payloadJcs: string,
) {
  const text =
    `{"actor":${JSON.stringify(f.actor)},"custom_payload":${payloadJcs},"fact_id":${JSON.stringify(f.fact_id)},` +
    `"prev_hash":${JSON.stringify(f.prev_hash)},"sealed_at_ms":${f.sealed_at_ms},` +
    // sealed_by is a member when the fact has one (docs/ledger-formats.md "fact_hash").
    (f.sealed_by === null ? '' : `"sealed_by":${JSON.stringify(f.sealed_by)},`) +
    `"stream_id":${JSON.stringify(f.stream_id)},` +
    `"tenant_id":${JSON.stringify(f.tenant_id)}}`;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

describe('ledger facts and streams (docs/ledger-formats.md "Contract")', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let other: LedgerTenant;
  let seq = 0;
  const stream = (label: string) => `${label}-${++seq}`;
  /** The principal of t.writerKey: every fact it seals has this sealed_by. */
  let writerId: string;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    [t, other] = await Promise.all([createLedgerTenant(stack, GENEROUS), createLedgerTenant(stack, GENEROUS)]);
    writerId = (await ledgerClient(stack.ledger.url, t.writerKey).get('/v1/whoami').expect(200)).body.principal.id;
  });
  afterAll(() => stack.stop());

  const counts = async () => {
    const { rows } = await stack
      .db('ledger')
      .query('SELECT (SELECT count(*) FROM facts)::int AS facts, (SELECT count(*) FROM streams)::int AS streams');
    return rows[0] as { facts: number; streams: number };
  };

  it('counts seals, replays and group-commit batch sizes on /metrics', async () => {
    const s = stream('metrics');
    const client = ledgerClient(stack.ledger.url, t.writerKey);
    const body = { tenant_id: t.tenantId, actor: 'agent:m', custom_payload: { n: 1 }, client_ref: 'm-1' };
    await client.post(`/streams/${s}/facts`, body).expect(201);
    await client.post(`/streams/${s}/facts`, body).expect(200);
    const text = (await request(stack.ledger.url).get('/metrics').expect(200)).text;
    expect(text).toMatch(/arbiter_ledger_seals_total\{[^}]*result="created"[^}]*\} [1-9]/);
    expect(text).toMatch(/arbiter_ledger_seals_total\{[^}]*result="replayed"[^}]*\} [1-9]/);
    expect(text).toMatch(/arbiter_ledger_seal_batch_size_count\{[^}]*\} [1-9]/);
  });

  describe('sealing', () => {
    it('seals the first fact of a new stream with 201, the genesis prev_hash and no parent', async () => {
      const s = stream('first');
      const res = await ledgerClient(stack.ledger.url, t.writerKey)
        .post(`/streams/${s}/facts`, { tenant_id: t.tenantId, actor: 'agent:billing', custom_payload: { b: 2, a: 'x' } })
        .expect(201);
      expect(res.body).toEqual({
        fact_id: expect.stringMatching(/^fct-[0-9a-f]{24}$/),
        stream_id: s,
        tenant_id: t.tenantId,
        actor: 'agent:billing',
        sealed_by: writerId,
        sealed_at_ms: expect.any(Number),
        sealed_at_iso: new Date(res.body.sealed_at_ms).toISOString(),
        custom_payload: { a: 'x', b: 2 },
        fact_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        prev_hash: GENESIS,
        parent_fact_id: null,
        sequence: 1,
        client_ref: null,
      });
      expect(res.body.fact_hash).toBe(expectedFactHash(res.body, '{"a":"x","b":2}'));
    });

    it('chains every next fact to the previous one by prev_hash and parent_fact_id', async () => {
      const s = stream('chain');
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      const facts: Array<
        {
          sequence: number;
          prev_hash: string;
          fact_hash: string;
          fact_id: string;
          parent_fact_id: string | null;
          sealed_at_ms: number;
        } & Parameters<typeof expectedFactHash>[0]
      > = [];
      for (let i = 0; i < 4; i++)
        facts.push((await c.post(`/streams/${s}/facts`, sealBody(t.tenantId, { custom_payload: { i } })).expect(201)).body);
      facts.forEach((f, i) => {
        expect(f.sequence).toBe(i + 1);
        expect(f.prev_hash).toBe(i === 0 ? GENESIS : facts[i - 1].fact_hash);
        expect(f.parent_fact_id).toBe(i === 0 ? null : facts[i - 1].fact_id);
        expect(f.fact_hash).toBe(expectedFactHash(f, `{"i":${i}}`));
        if (i > 0) expect(f.sealed_at_ms).toBeGreaterThanOrEqual(facts[i - 1].sealed_at_ms);
      });
    });

    it('answers a retry with the same client_ref with 200 and the original fact, and stores nothing more', async () => {
      const s = stream('idem');
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      const first = await c
        .post(`/streams/${s}/facts`, sealBody(t.tenantId, { client_ref: 'order-42', custom_payload: { v: 1 } }))
        .expect(201);
      const before = await counts();
      const retry = await c
        .post(`/streams/${s}/facts`, sealBody(t.tenantId, { client_ref: 'order-42', custom_payload: { v: 1 } }))
        .expect(200);
      expect(retry.body).toEqual(first.body);
      // docs/ledger-formats.md "Seal request body": later requests return the original fact, whatever they carry.
      const changed = await c
        .post(`/streams/${s}/facts`, sealBody(t.tenantId, { client_ref: 'order-42', custom_payload: { v: 2 } }))
        .expect(200);
      expect(changed.body).toEqual(first.body);
      expect(await counts()).toEqual(before);
    });

    it('scopes client_ref to its stream: the same client_ref in another stream seals a new fact', async () => {
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      const a = await c.post(`/streams/${stream('ref-a')}/facts`, sealBody(t.tenantId, { client_ref: 'same' })).expect(201);
      const b = await c.post(`/streams/${stream('ref-b')}/facts`, sealBody(t.tenantId, { client_ref: 'same' })).expect(201);
      expect(b.body.fact_id).not.toBe(a.body.fact_id);
    });

    it('keeps payload values exactly as JSON numbers, strings and nesting, in RFC 8785 form', async () => {
      // U+0001 is escaped by RFC 8785 and stored; U+0000 is refused (validation cases below).
      const payload = { z: [1, 1.5, -0, 1e21, 'é\u0001✓', '\\u0000', null, true], a: { c: {}, b: [] } };
      const res = await ledgerClient(stack.ledger.url, t.writerKey)
        .post(`/streams/${stream('values')}/facts`, sealBody(t.tenantId, { custom_payload: payload }))
        .expect(201);
      expect(res.body.custom_payload).toEqual({ a: { b: [], c: {} }, z: [1, 1.5, 0, 1e21, 'é\u0001✓', '\\u0000', null, true] });
      expect(res.body.fact_hash).toBe(
        expectedFactHash(res.body, '{"a":{"b":[],"c":{}},"z":[1,1.5,0,1e+21,"é\\u0001✓","\\\\u0000",null,true]}'),
      );
    });
  });

  describe('reading', () => {
    it('lists facts in chain order with only the five list fields; count is the whole stream', async () => {
      const s = stream('list');
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.push((await c.post(`/streams/${s}/facts`, sealBody(t.tenantId, { custom_payload: { i } }))).body.fact_id);
      const page = await c.get(`/streams/${s}/facts?limit=3&offset=2`).expect(200);
      expect(page.body.count).toBe(7);
      expect(page.body.limit).toBe(3);
      expect(page.body.offset).toBe(2);
      expect(page.body.facts.map((f: { fact_id: string }) => f.fact_id)).toEqual(ids.slice(2, 5));
      // The five list fields of the contract, and sealed_by, which fact_hash covers (docs/ledger-formats.md "Fact").
      expect(Object.keys(page.body.facts[0]).sort()).toEqual([
        'actor',
        'custom_payload',
        'fact_id',
        'sealed_at_iso',
        'sealed_at_ms',
        'sealed_by',
      ]);
      expect(page.body.facts[0]).toMatchObject({ actor: 'agent:test', custom_payload: { i: 2 } });
      const all = await c.get(`/streams/${s}/facts`).expect(200);
      expect(all.body).toMatchObject({ count: 7, limit: 50, offset: 0 });
      expect(all.body.facts.map((f: { fact_id: string }) => f.fact_id)).toEqual(ids);
      const beyond = await c.get(`/streams/${s}/facts?offset=7`).expect(200);
      expect(beyond.body).toEqual({ facts: [], count: 7, limit: 50, offset: 7 });
    });

    it('gets one fact with its hashes', async () => {
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      const sealed = await c.post(`/streams/${stream('get')}/facts`, sealBody(t.tenantId, { client_ref: 'r-1' })).expect(201);
      const got = await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/facts/${sealed.body.fact_id}`).expect(200);
      expect(got.body).toEqual(sealed.body);
    });

    it("lists the tenant's streams oldest first, page by page with next_cursor", async () => {
      const fresh = await createLedgerTenant(stack, GENEROUS);
      const c = ledgerClient(stack.ledger.url, fresh.writerKey);
      for (const s of ['s-b', 's-a', 's-c']) await c.post(`/streams/${s}/facts`, sealBody(fresh.tenantId)).expect(201);
      await c.post('/streams/s-a/facts', sealBody(fresh.tenantId)).expect(201);
      const first = await c.get(`/tenants/${fresh.tenantId}/streams?limit=2`).expect(200);
      expect(first.body.items.map((s: { stream_id: string }) => s.stream_id)).toEqual(['s-b', 's-a']);
      expect(first.body.items[1]).toEqual({
        stream_id: 's-a',
        tenant_id: fresh.tenantId,
        fact_count: 2,
        head_fact_id: expect.stringMatching(/^fct-/),
        head_hash: expect.stringMatching(/^sha256:/),
        created_at_ms: expect.any(Number),
        created_at_iso: expect.any(String),
        updated_at_ms: expect.any(Number),
        updated_at_iso: expect.any(String),
      });
      const second = await c.get(`/tenants/${fresh.tenantId}/streams?limit=2&cursor=${first.body.next_cursor}`).expect(200);
      expect(second.body).toEqual({ items: [expect.objectContaining({ stream_id: 's-c', fact_count: 1 })], next_cursor: null });
    });
  });

  describe('tenant isolation', () => {
    it("keeps another tenant's stream of the same id apart: its seal makes its own stream, and it reads none of the first one's", async () => {
      const s = stream('mine');
      const mine = await ledgerClient(stack.ledger.url, t.writerKey).post(`/streams/${s}/facts`, sealBody(t.tenantId)).expect(201);
      await ledgerClient(stack.ledger.url, t.writerKey).post(`/streams/${s}/bundles`).expect(201);
      const theirs = ledgerClient(stack.ledger.url, other.adminKey);
      // Reads of the id before the other tenant seals: as for an id nobody uses (docs/ledger-formats.md "Stream identity").
      await theirs.get(`/streams/${s}/facts`).expect(404);
      await theirs.post(`/streams/${s}/verify`).expect(404);
      await theirs.post(`/streams/${s}/bundles`).expect(404);
      await theirs.get(`/streams/${s}/bundles`).expect(404);
      const own = await theirs.post(`/streams/${s}/facts`, sealBody(other.tenantId)).expect(201);
      expect(own.body).toMatchObject({ stream_id: s, tenant_id: other.tenantId, sequence: 1, prev_hash: GENESIS });
      expect((await theirs.get(`/streams/${s}/facts`).expect(200)).body.facts.map((f: { fact_id: string }) => f.fact_id)).toEqual([
        own.body.fact_id,
      ]);
      expect(
        (await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/streams/${s}/facts`).expect(200)).body.facts.map(
          (f: { fact_id: string }) => f.fact_id,
        ),
      ).toEqual([mine.body.fact_id]);
      await theirs.get(`/facts/${mine.body.fact_id}`).expect(404);
      const bundles = await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/streams/${s}/bundles`).expect(200);
      await theirs.get(`/bundles/${bundles.body.items[0].bundle_id}`).expect(404);
      expect((await theirs.get(`/streams/${s}/bundles`).expect(200)).body.items).toEqual([]);
      await theirs.get(`/tenants/${t.tenantId}/streams`).expect(404);
    });

    it('refuses a body tenant_id other than the key tenant with 403 FORBIDDEN, storing nothing', async () => {
      const before = await counts();
      const res = await ledgerClient(stack.ledger.url, t.writerKey)
        .post(`/streams/${stream('cross')}/facts`, sealBody(other.tenantId))
        .expect(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', message: `tenant_id ${other.tenantId} is not the tenant of this API key` });
      expect(await counts()).toEqual(before);
    });
  });

  describe('authentication and permissions', () => {
    it('answers 401 UNAUTHORIZED without a key, with a malformed key and with an unknown key', async () => {
      for (const key of [undefined, 'not-a-key', `ak-${'0'.repeat(64)}`]) {
        const res = await ledgerClient(stack.ledger.url, key).get(`/facts/fct-x`).expect(401);
        expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
        // Counted against the client address's bucket, at the standard tier (ledger-rate-limit.e2e.spec.ts).
        expect(res.headers['x-ratelimit-limit']).toBe('1000');
      }
      await ledgerClient(stack.ledger.url).post('/streams/s/facts', sealBody(t.tenantId)).expect(401);
    });

    it('answers 503 SERVICE_UNAVAILABLE when the registry cannot check a key', async () => {
      const orphan = await stack.startReplica('ledger', { env: { REGISTRY_URL: 'http://127.0.0.1:9' } });
      const res = await ledgerClient(orphan.url, t.readOnlyKey).get('/health').expect(503);
      expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: { error_id: expect.any(String) } });
    });

    it('needs seal to seal and read to read (403 FORBIDDEN naming the permission); admin holds both', async () => {
      const s = stream('perm');
      const denied = await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${s}/facts`, sealBody(t.tenantId)).expect(403);
      expect(denied.body).toEqual({ code: 'FORBIDDEN', message: 'Missing permission: seal', details: { permission: 'seal' } });
      await ledgerClient(stack.ledger.url, t.sealOnlyKey).post(`/streams/${s}/facts`, sealBody(t.tenantId)).expect(201);
      const noRead = await ledgerClient(stack.ledger.url, t.sealOnlyKey).get(`/streams/${s}/facts`).expect(403);
      expect(noRead.body.details).toEqual({ permission: 'read' });
      await ledgerClient(stack.ledger.url, t.sealOnlyKey).post(`/streams/${s}/verify`).expect(403);
      await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${s}/verify`).expect(200);
      await ledgerClient(stack.ledger.url, t.adminKey).post(`/streams/${s}/facts`, sealBody(t.tenantId)).expect(201);
      await ledgerClient(stack.ledger.url, t.adminKey).get(`/streams/${s}/facts`).expect(200);
    });
  });

  describe('validation: 400 VALIDATION_ERROR and nothing stored', () => {
    const cases: Array<[string, (tenantId: string) => unknown]> = [
      ['an unknown field', (id) => ({ ...sealBody(id), extra: 1 })],
      ['a missing tenant_id', () => ({ actor: 'a', custom_payload: {} })],
      ['a missing actor', (id) => ({ tenant_id: id, custom_payload: {} })],
      ['a missing custom_payload', (id) => ({ tenant_id: id, actor: 'a' })],
      ['a numeric actor', (id) => sealBody(id, { actor: 42 })],
      ['an empty actor', (id) => sealBody(id, { actor: '' })],
      ['an actor of 257 characters', (id) => sealBody(id, { actor: 'a'.repeat(257) })],
      ['an actor of 100 000 characters', (id) => sealBody(id, { actor: 'a'.repeat(100_000) })],
      ['an actor with a lone surrogate', (id) => sealBody(id, { actor: 'a\ud800' })],
      ['custom_payload as an array', (id) => sealBody(id, { custom_payload: [1, 2] })],
      ['custom_payload as a string', (id) => sealBody(id, { custom_payload: 'text' })],
      ['custom_payload as null', (id) => sealBody(id, { custom_payload: null })],
      ['custom_payload as a number', (id) => sealBody(id, { custom_payload: 7 })],
      ['custom_payload over 64 KiB', (id) => sealBody(id, { custom_payload: { s: 'x'.repeat(70_000) } })],
      ['custom_payload nested 33 deep', (id) => sealBody(id, { custom_payload: JSON.parse(`${'{"a":'.repeat(32)}{}${'}'.repeat(32)}`) })],
      ['a numeric client_ref', (id) => sealBody(id, { client_ref: 5 })],
      ['an empty client_ref', (id) => sealBody(id, { client_ref: '' })],
      ['a numeric tenant_id', () => sealBody('x', { tenant_id: 12 })],
      ['an array body', () => [1]],
    ];
    it.each(cases)('refuses %s', async (_label, body) => {
      const before = await counts();
      const res = await ledgerClient(stack.ledger.url, t.writerKey)
        .post(`/streams/${stream('bad')}/facts`, body(t.tenantId) as object)
        .expect(400);
      expect(res.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        ...(res.body.details ? { details: expect.anything() } : {}),
      });
      expect(await counts()).toEqual(before);
    });

    it('refuses a body over 1 MiB, malformed JSON and a non-JSON content type', async () => {
      const before = await counts();
      const url = `/streams/${stream('raw')}/facts`;
      const send = (body: string, type = 'application/json') =>
        request(stack.ledger.url).post(url).set('X-API-Key', t.writerKey).set('Content-Type', type).send(body);
      for (const res of [
        await send(JSON.stringify(sealBody(t.tenantId, { custom_payload: { s: 'x'.repeat(1_100_000) } }))),
        await send('{"tenant_id": '),
        await send('tenant_id=x', 'application/x-www-form-urlencoded'),
        await send(`{"tenant_id":"${t.tenantId}","actor":"a","custom_payload":{"n":1e400}}`),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
      }
      expect(await counts()).toEqual(before);
    });

    it('refuses a stream_id outside the documented alphabet', async () => {
      const res = await ledgerClient(stack.ledger.url, t.writerKey)
        .post(`/streams/${encodeURIComponent('bad id!')}/facts`, sealBody(t.tenantId))
        .expect(400);
      expect(res.body.details).toEqual({ fields: [{ field: 'stream_id', message: expect.any(String) }] });
      await ledgerClient(stack.ledger.url, t.writerKey)
        .get(`/streams/${'x'.repeat(129)}/facts`)
        .expect(400);
    });

    it.each(['limit=0', 'limit=1001', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x'])('refuses the list query %s', async (query) => {
      const s = stream('q');
      await ledgerClient(stack.ledger.url, t.writerKey).post(`/streams/${s}/facts`, sealBody(t.tenantId)).expect(201);
      const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/streams/${s}/facts?${query}`).expect(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });

    it('refuses a cursor that was not made by the service', async () => {
      const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/tenants/${t.tenantId}/streams?cursor=garbage`).expect(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('not found and internal errors', () => {
    it('answers 404 NOT_FOUND for unknown facts, bundles, streams and routes', async () => {
      const c = ledgerClient(stack.ledger.url, t.writerKey);
      expect((await c.get('/facts/fct-000000000000000000000000').expect(404)).body).toEqual({
        code: 'NOT_FOUND',
        message: 'Fact fct-000000000000000000000000 not found',
      });
      await c.get('/bundles/bnd-000000000000000000000000').expect(404);
      await c.get('/streams/nowhere/facts').expect(404);
      await c.post('/streams/nowhere/verify').expect(404);
      await c.post('/streams/nowhere/bundles').expect(404);
      expect((await c.get('/no/such/route').expect(404)).body.code).toBe('NOT_FOUND');
    });

    it('answers 500 INTERNAL_ERROR with only an error id when the database fails under it', async () => {
      await stack.db('ledger').query('ALTER TABLE facts RENAME TO facts_away');
      try {
        const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/facts/fct-000000000000000000000000').expect(500);
        expect(res.body).toEqual({ code: 'INTERNAL_ERROR', message: 'Internal server error', details: { error_id: expect.any(String) } });
        expect(JSON.stringify(res.body)).not.toMatch(/facts_away|relation|stack/);
      } finally {
        await stack.db('ledger').query('ALTER TABLE facts_away RENAME TO facts');
      }
      await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/facts/fct-000000000000000000000000').expect(404);
    });
  });

  describe('health', () => {
    it('answers GET /health to any valid key with each dependency', async () => {
      const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).get('/health').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        service: 'ledger',
        time_ms: expect.any(Number),
        time_iso: expect.any(String),
        checks: { database: 'ok', redis: 'ok', signing_key: 'ok' },
      });
      await ledgerClient(stack.ledger.url).get('/health').expect(401);
      await request(stack.ledger.url).get('/livez').expect(200);
      await request(stack.ledger.url).get('/readyz').expect(200);
    });
  });
});
