import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createLedgerTenant, ledgerClient, rawRequest, sealBody, type LedgerTenant } from '../ledger-harness';
import { startStack, type Stack } from '../stack';

/** Functional tests must not trip the standard rate limit (its own spec tests that). */
const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };
const GENESIS = `sha256:${'0'.repeat(64)}`;

/**
 * Abuse cases (ADR 0016): ledger stream ids were global, so a tenant could squat a name and
 * learn which names other tenants use (404 on another tenant's stream, 201 on a free one), and
 * `ARBITER.<tenant>.consultations` passed as an ordinary stream. Stream ids now live in each tenant's
 * namespace (docs/ledger-formats.md "Stream identity"), and the `arbiter.` prefix is reserved in any case.
 */
describe('abuse: ledger stream names', () => {
  let stack: Stack;
  let a: LedgerTenant;
  let b: LedgerTenant;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    [a, b] = await Promise.all([createLedgerTenant(stack, GENEROUS), createLedgerTenant(stack, GENEROUS)]);
  });
  afterAll(() => stack.stop());

  describe('two tenants, one stream name', () => {
    const orders = `orders-${randomUUID().slice(0, 8)}`;
    const facts: Record<'a' | 'b', Array<{ fact_id: string; fact_hash: string }>> = { a: [], b: [] };

    beforeAll(async () => {
      for (let i = 0; i < 3; i++)
        facts.a.push(
          (
            await ledgerClient(stack.ledger.url, a.writerKey)
              .post(`/streams/${orders}/facts`, sealBody(a.tenantId, { custom_payload: { tenant: 'a', i } }))
              .expect(201)
          ).body,
        );
    });

    it("lets B create and use its own stream of a name A uses: a new chain of B's, not A's", async () => {
      const first = await ledgerClient(stack.ledger.url, b.writerKey)
        .post(`/streams/${orders}/facts`, sealBody(b.tenantId, { custom_payload: { tenant: 'b' } }))
        .expect(201);
      expect(first.body).toMatchObject({ stream_id: orders, tenant_id: b.tenantId, sequence: 1, prev_hash: GENESIS, parent_fact_id: null });
      facts.b.push(first.body);
      facts.b.push(
        (
          await ledgerClient(stack.ledger.url, b.writerKey)
            .post(`/streams/${orders}/facts`, sealBody(b.tenantId, { custom_payload: { tenant: 'b', i: 1 } }))
            .expect(201)
        ).body,
      );
      // A's chain goes on where it was.
      const next = await ledgerClient(stack.ledger.url, a.writerKey)
        .post(`/streams/${orders}/facts`, sealBody(a.tenantId, { custom_payload: { tenant: 'a', i: 3 } }))
        .expect(201);
      expect(next.body).toMatchObject({ tenant_id: a.tenantId, sequence: 4, prev_hash: facts.a[2].fact_hash });
      facts.a.push(next.body);
    });

    it('shows each tenant only its own facts, streams and verification', async () => {
      for (const [t, own, theirs] of [
        [a, facts.a, facts.b],
        [b, facts.b, facts.a],
      ] as const) {
        const reader = ledgerClient(stack.ledger.url, t.readOnlyKey);
        const list = (await reader.get(`/streams/${orders}/facts`).expect(200)).body;
        expect({ count: list.count, ids: list.facts.map((f: { fact_id: string }) => f.fact_id) }).toEqual({
          count: own.length,
          ids: own.map((f) => f.fact_id),
        });
        expect((await reader.post(`/streams/${orders}/verify`).expect(200)).body).toMatchObject({
          valid: true,
          facts_verified: own.length,
          head_fact_id: own[own.length - 1].fact_id,
        });
        const streams = (await reader.get(`/tenants/${t.tenantId}/streams?limit=1000`).expect(200)).body.items.filter(
          (s: { stream_id: string }) => s.stream_id === orders,
        );
        expect(streams).toEqual([expect.objectContaining({ tenant_id: t.tenantId, fact_count: own.length })]);
        for (const f of theirs) {
          await reader.get(`/facts/${f.fact_id}`).expect(404);
          await reader.get(`/facts/${f.fact_id}/inclusion`).expect(404);
        }
      }
    });

    it("keeps bundles and checkpoints apart: neither tenant sees the other's", async () => {
      const bundleA = (await ledgerClient(stack.ledger.url, a.readOnlyKey).post(`/streams/${orders}/bundles`).expect(201)).body;
      const bundleB = (await ledgerClient(stack.ledger.url, b.readOnlyKey).post(`/streams/${orders}/bundles`).expect(201)).body;
      expect(bundleA).toMatchObject({ tenant_id: a.tenantId, facts_manifest: facts.a.map((f) => f.fact_id) });
      expect(bundleB).toMatchObject({ tenant_id: b.tenantId, facts_manifest: facts.b.map((f) => f.fact_id) });
      for (const [t, own, theirs] of [
        [a, bundleA, bundleB],
        [b, bundleB, bundleA],
      ] as const) {
        const reader = ledgerClient(stack.ledger.url, t.readOnlyKey);
        expect(
          (await reader.get(`/streams/${orders}/bundles`).expect(200)).body.items.map((x: { bundle_id: string }) => x.bundle_id),
        ).toEqual([own.bundle_id]);
        await reader.get(`/bundles/${theirs.bundle_id}`).expect(404);
      }
      const checkpoint = async (t: LedgerTenant) =>
        (await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/streams/${orders}/checkpoint`).expect(200)).body;
      const [cpA, cpB] = [await checkpoint(a), await checkpoint(b)];
      expect(cpA).toMatchObject({ stream_id: orders, tree_size: facts.a.length });
      expect(cpB).toMatchObject({ stream_id: orders, tree_size: facts.b.length });
      expect(cpB.root_hash).not.toBe(cpA.root_hash);
      // B cannot ask about the size of A's tree: its own stream is smaller.
      const beyond = await ledgerClient(stack.ledger.url, b.readOnlyKey)
        .get(`/streams/${orders}/checkpoint?tree_size=${facts.a.length}`)
        .expect(400);
      expect(beyond.body.details.fields[0].field).toBe('tree_size');
      await ledgerClient(stack.ledger.url, b.readOnlyKey).get(`/streams/${orders}/consistency?from=1&to=${facts.a.length}`).expect(400);
    });
  });

  it('answers B about a name only A uses exactly as about a name nobody uses, on every stream route', async () => {
    const used = `only-a-${randomUUID().slice(0, 8)}`;
    const unused = `nobody-${randomUUID().slice(0, 8)}`;
    await ledgerClient(stack.ledger.url, a.writerKey).post(`/streams/${used}/facts`, sealBody(a.tenantId)).expect(201);
    await ledgerClient(stack.ledger.url, a.readOnlyKey).post(`/streams/${used}/bundles`).expect(201);
    const asB = ledgerClient(stack.ledger.url, b.adminKey);
    const answer = async (name: string, call: (path: string) => Promise<{ status: number; body: unknown }>, path: string) => {
      const res = await call(path.replace('{s}', name));
      return { status: res.status, body: JSON.parse(JSON.stringify(res.body).split(name).join('{s}')) };
    };
    const routes: Array<[string, (p: string) => Promise<{ status: number; body: unknown }>]> = [
      ['/streams/{s}/facts', (p) => asB.get(p)],
      ['/streams/{s}/facts?limit=5&offset=1', (p) => asB.get(p)],
      ['/streams/{s}/verify', (p) => asB.post(p)],
      ['/streams/{s}/bundles', (p) => asB.get(p)],
      ['/streams/{s}/checkpoint', (p) => asB.get(p)],
      ['/streams/{s}/checkpoint?tree_size=1', (p) => asB.get(p)],
      ['/streams/{s}/consistency?from=1&to=1', (p) => asB.get(p)],
    ];
    for (const [path, call] of routes) {
      const [forUsed, forUnused] = [await answer(used, call, path), await answer(unused, call, path)];
      expect({ path, ...forUsed }).toEqual({ path, ...forUnused });
      expect(forUsed.status).toBe(404);
    }
    // Creating a bundle and sealing, in that order: a bundle of a stream B does not have is 404 either way.
    expect(await answer(used, (p) => asB.post(p), '/streams/{s}/bundles')).toEqual(
      await answer(unused, (p) => asB.post(p), '/streams/{s}/bundles'),
    );
    // A seal creates B's own stream under either name: the same first fact, whatever A holds.
    const seal = async (name: string) => {
      const res = await ledgerClient(stack.ledger.url, b.writerKey).post(`/streams/${name}/facts`, sealBody(b.tenantId)).expect(201);
      return {
        tenant_id: res.body.tenant_id,
        sequence: res.body.sequence,
        prev_hash: res.body.prev_hash,
        parent_fact_id: res.body.parent_fact_id,
      };
    };
    expect(await seal(used)).toEqual(await seal(unused));
    expect(await seal(unused)).toMatchObject({ tenant_id: b.tenantId, sequence: 2 });
  });

  describe('the reserved prefix arbiter., in any case', () => {
    // The two doors of POST /streams/{id}/facts: the fast lane (plain JSON) and the express/tsoa route (gzip).
    const doors = [
      ['the fast lane', (body: Buffer) => ({ body, headers: {} })],
      ['the tsoa route', (body: Buffer) => ({ body: gzipSync(body), headers: { 'Content-Encoding': 'gzip' } })],
    ] as const;

    it.each(doors)('refuses a tenant key with 403 FORBIDDEN on %s, storing nothing', async (_door, encode) => {
      const count = async () =>
        (await stack.db('ledger').query<{ n: number }>('SELECT count(*)::int AS n FROM facts WHERE tenant_id = $1', [a.tenantId])).rows[0]
          .n;
      const before = await count();
      for (const streamId of [
        `ARBITER.${a.tenantId}.consultations`,
        `Arbiter.${a.tenantId}.consultations`,
        `arBITer.${a.tenantId}.rules`,
        'ARBITER.x',
        `arbiter.${a.tenantId}.consultations`,
      ]) {
        for (const key of [a.writerKey, a.adminKey]) {
          const { body, headers } = encode(Buffer.from(JSON.stringify(sealBody(a.tenantId))));
          const res = await rawRequest(stack.ledger.url, `/streams/${streamId}/facts`, { body, headers: { 'X-API-Key': key, ...headers } });
          expect({ streamId, status: res.status, code: res.body?.code }).toEqual({ streamId, status: 403, code: 'FORBIDDEN' });
        }
      }
      expect(await count()).toBe(before);
    });

    it('still lets the tenant seal names that only look alike', async () => {
      for (const streamId of [
        `arbiterx-${randomUUID().slice(0, 8)}`,
        `my.arbiter.${randomUUID().slice(0, 8)}`,
        `ARBITER-${randomUUID().slice(0, 8)}`,
      ]) {
        await ledgerClient(stack.ledger.url, a.writerKey).post(`/streams/${streamId}/facts`, sealBody(a.tenantId)).expect(201);
      }
    });
  });
});
