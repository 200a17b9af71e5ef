import request from 'supertest';
import { createLedgerTenant, sealBody, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';
import { bundleLedger, processEnv, spawnLedger, type LedgerProcess } from './ledger-processes';

const GENEROUS = { rate_limit: { requests_per_minute: 1_000_000, burst: 100_000 } };

interface StoredLink {
  seq: number;
  fact_id: string;
  prev_hash: string;
  fact_hash: string;
  parent_fact_id: string | null;
}

/**
 * docs/ledger-formats.md "Concurrency": appends to one stream are linearised by the database, whatever
 * the number of replicas. Two real ledger processes (the esbuild bundle, as deployed) on one
 * database take concurrent seals of one stream.
 */
describe('ledger appends across two processes', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let processes: LedgerProcess[] = [];

  beforeAll(async () => {
    let bundled: Awaited<ReturnType<typeof bundleLedger>>;
    [stack, bundled] = await Promise.all([startStack({ ledger: true }), bundleLedger()]);
    t = await createLedgerTenant(stack, GENEROUS);
    // Small pools and batches make the two processes interleave many transactions.
    const env = processEnv({ ...stack.env('ledger'), DB_POOL_SIZE: '4', SEAL_BATCH_MAX: '8' });
    processes = await Promise.all([spawnLedger(bundled.main, env), spawnLedger(bundled.main, env)]);
    expect(processes[0].pid).not.toBe(processes[1].pid);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await stack.stop();
  });

  const seal = (i: number, streamId: string, extra: object = {}) =>
    request(processes[i % 2].url)
      .post(`/streams/${streamId}/facts`)
      .set('X-API-Key', t.writerKey)
      .send(sealBody(t.tenantId, { custom_payload: { i }, ...extra }));

  async function storedChain(streamId: string): Promise<StoredLink[]> {
    const { rows } = await stack
      .db('ledger')
      .query(`SELECT seq::int AS seq, fact_id, prev_hash, fact_hash, parent_fact_id FROM facts WHERE stream_id = $1 ORDER BY seq`, [
        streamId,
      ]);
    return rows;
  }

  it('turns 50 concurrent sealers on one new stream into one chain: no fork, no gap, no duplicate', async () => {
    const streamId = 'race-50';
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => seal(i, streamId)));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const chain = await storedChain(streamId);
    expect(chain.map((f) => f.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(chain.map((f) => f.fact_id)).size).toBe(50);
    expect(new Set(chain.map((f) => f.prev_hash)).size).toBe(50);
    chain.forEach((f, i) => {
      expect(f.prev_hash).toBe(i === 0 ? `sha256:${'0'.repeat(64)}` : chain[i - 1].fact_hash);
      expect(f.parent_fact_id).toBe(i === 0 ? null : chain[i - 1].fact_id);
    });
    expect(new Set(responses.map((r) => r.body.fact_id))).toEqual(new Set(chain.map((f) => f.fact_id)));
    const payloads = responses.map((r) => r.body.custom_payload.i).sort((a, b) => a - b);
    expect(payloads).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const { rows } = await stack
      .db('ledger')
      .query(`SELECT head_seq::int AS n, head_fact_id FROM streams WHERE stream_id = $1`, [streamId]);
    expect(rows[0]).toEqual({ n: 50, head_fact_id: chain[49].fact_id });
    for (const p of processes) {
      const verified = await request(p.url).post(`/streams/${streamId}/verify`).set('X-API-Key', t.readOnlyKey).expect(200);
      expect(verified.body).toMatchObject({ valid: true, facts_verified: 50 });
    }
  }, 30_000);

  it('creates exactly one fact for concurrent retries of one client_ref, answering it to every caller', async () => {
    const streamId = 'retry-race';
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => seal(i, streamId, { client_ref: 'payment-7' })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(responses.map((r) => r.body.fact_id)).size).toBe(1);
    const { rows } = await stack.db('ledger').query(`SELECT count(*)::int AS n FROM facts WHERE stream_id = $1`, [streamId]);
    expect(rows[0].n).toBe(1);
  }, 30_000);

  it('creates one fact per client_ref when many refs are retried at once among fresh seals', async () => {
    const streamId = 'retry-mix';
    const requests = [
      ...Array.from({ length: 30 }, (_, i) => seal(i, streamId, { client_ref: `ref-${i % 10}` })),
      ...Array.from({ length: 10 }, (_, i) => seal(i + 1, streamId)),
    ];
    const responses = await Promise.all(requests);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(20);
    const chain = await storedChain(streamId);
    expect(chain.map((f) => f.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const { rows } = await stack
      .db('ledger')
      .query(`SELECT client_ref, count(*)::int AS n FROM facts WHERE stream_id = $1 AND client_ref IS NOT NULL GROUP BY client_ref`, [
        streamId,
      ]);
    expect(rows).toHaveLength(10);
    expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    const verified = await request(processes[0].url).post(`/streams/${streamId}/verify`).set('X-API-Key', t.readOnlyKey).expect(200);
    expect(verified.body).toMatchObject({ valid: true, facts_verified: 20 });
  }, 30_000);
});
