import { createLedgerTenant, ledgerClient, sealBody, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';

const GENEROUS = { rate_limit: { requests_per_minute: 1_000_000, burst: 100_000 } };

/**
 * Verify walks the stored chain; tampering done directly in the database (as an attacker
 * or a faulty process with database access would) answers valid false naming the fact where the
 * chain breaks. A broken chain is not an error status (docs/ledger-formats.md "Verification result").
 */
describe('ledger verify against a tampered database', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    t = await createLedgerTenant(stack, GENEROUS);
  });
  afterAll(() => stack.stop());

  /** A stream of `count` facts; returns its id and the facts in chain order. */
  async function sealed(count: number) {
    const streamId = `v-${++n}`;
    const c = ledgerClient(stack.ledger.url, t.writerKey);
    const facts: Array<{ fact_id: string; fact_hash: string }> = [];
    for (let i = 0; i < count; i++)
      facts.push((await c.post(`/streams/${streamId}/facts`, sealBody(t.tenantId, { custom_payload: { i } })).expect(201)).body);
    return { streamId, facts };
  }
  const verify = (streamId: string) => ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/verify`).expect(200);

  it('answers valid true with every fact verified for an intact stream', async () => {
    const { streamId, facts } = await sealed(5);
    expect((await verify(streamId)).body).toEqual({
      valid: true,
      facts_verified: 5,
      stream_id: streamId,
      head_fact_id: facts[4].fact_id,
      head_hash: facts[4].fact_hash,
    });
  });

  it('names the fact whose payload was edited', async () => {
    const { streamId, facts } = await sealed(5);
    await stack.db('ledger').query(`UPDATE facts SET custom_payload = '{"i":99}' WHERE fact_id = $1`, [facts[2].fact_id]);
    const res = await verify(streamId);
    expect(res.body).toMatchObject({ valid: false, facts_verified: 2, broken_fact_id: facts[2].fact_id });
    expect(res.body.error).toBe(`chain broken at fact ${facts[2].fact_id} (position 3): its content does not match its fact_hash`);
  });

  it('names the fact whose actor or time was edited', async () => {
    const { streamId, facts } = await sealed(3);
    await stack.db('ledger').query(`UPDATE facts SET sealed_at_ms = sealed_at_ms + 1 WHERE fact_id = $1`, [facts[1].fact_id]);
    expect((await verify(streamId)).body).toMatchObject({ valid: false, facts_verified: 1, broken_fact_id: facts[1].fact_id });
  });

  it('names the fact whose stored hash was replaced, even when the next fact is relinked to it', async () => {
    const { streamId, facts } = await sealed(4);
    const forged = `sha256:${'a'.repeat(64)}`;
    await stack.db('ledger').query(`UPDATE facts SET fact_hash = $2 WHERE fact_id = $1`, [facts[1].fact_id, forged]);
    await stack.db('ledger').query(`UPDATE facts SET prev_hash = $2 WHERE fact_id = $1`, [facts[2].fact_id, forged]);
    expect((await verify(streamId)).body).toMatchObject({ valid: false, facts_verified: 1, broken_fact_id: facts[1].fact_id });
  });

  it('names the first fact out of order when two facts swap positions', async () => {
    const { streamId, facts } = await sealed(5);
    // Swap positions 2 and 3 (through a free position: the unique index holds at every step).
    await stack.db('ledger').query(`UPDATE facts SET seq = 1000 WHERE fact_id = $1`, [facts[1].fact_id]);
    await stack.db('ledger').query(`UPDATE facts SET seq = 2 WHERE fact_id = $1`, [facts[2].fact_id]);
    await stack.db('ledger').query(`UPDATE facts SET seq = 3 WHERE fact_id = $1`, [facts[1].fact_id]);
    const res = await verify(streamId);
    expect(res.body).toMatchObject({ valid: false, facts_verified: 1, broken_fact_id: facts[2].fact_id });
    expect(res.body.error).toMatch(/does not link to the previous fact/);
  });

  it('names the fact after a deleted one', async () => {
    const { streamId, facts } = await sealed(5);
    await stack.db('ledger').query(`DELETE FROM facts WHERE fact_id = $1`, [facts[2].fact_id]);
    const res = await verify(streamId);
    expect(res.body).toMatchObject({ valid: false, facts_verified: 2, broken_fact_id: facts[3].fact_id });
    expect(res.body.error).toBe(
      `chain broken at fact ${facts[3].fact_id} (position 4): the fact at position 3 is missing (the next stored fact is at position 4)`,
    );
  });

  it('names the head when the last fact was deleted', async () => {
    const { streamId, facts } = await sealed(4);
    await stack.db('ledger').query(`DELETE FROM facts WHERE fact_id = $1`, [facts[3].fact_id]);
    expect((await verify(streamId)).body).toMatchObject({ valid: false, facts_verified: 3, broken_fact_id: facts[3].fact_id });
  });

  it('refuses to sign a bundle of a tampered stream (500 INTERNAL_ERROR), and signs again once repaired', async () => {
    const { streamId, facts } = await sealed(3);
    const { rows } = await stack.db('ledger').query(`SELECT custom_payload::text AS p FROM facts WHERE fact_id = $1`, [facts[1].fact_id]);
    await stack.db('ledger').query(`UPDATE facts SET custom_payload = '{"i":7}' WHERE fact_id = $1`, [facts[1].fact_id]);
    const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(500);
    expect(res.body).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringContaining(`chain broken at fact ${facts[1].fact_id}`),
    });
    const { rows: stored } = await stack.db('ledger').query(`SELECT count(*)::int AS n FROM bundles WHERE stream_id = $1`, [streamId]);
    expect(stored[0].n).toBe(0);
    await stack.db('ledger').query(`UPDATE facts SET custom_payload = $2::json WHERE fact_id = $1`, [facts[1].fact_id, rows[0].p]);
    await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201);
  });

  it('pages through a stream longer than a page and still names the breaking fact', async () => {
    const replica = await stack.startReplica('ledger', { env: { VERIFY_PAGE_SIZE: '3' } });
    const { streamId, facts } = await sealed(11);
    const ok = await ledgerClient(replica.url, t.readOnlyKey).post(`/streams/${streamId}/verify`).expect(200);
    expect(ok.body).toMatchObject({ valid: true, facts_verified: 11 });
    await stack.db('ledger').query(`UPDATE facts SET actor = 'someone else' WHERE fact_id = $1`, [facts[9].fact_id]);
    const broken = await ledgerClient(replica.url, t.readOnlyKey).post(`/streams/${streamId}/verify`).expect(200);
    expect(broken.body).toMatchObject({ valid: false, facts_verified: 9, broken_fact_id: facts[9].fact_id });
  });
});
