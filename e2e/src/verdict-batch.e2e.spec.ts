import { Client } from 'pg';
import request from 'supertest';
import { createVerdictTenant, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const POISON = 'e2e.poison';

/**
 * docs/verdicts.md "Overrides": one request's bad row never fails another request. The consultation group
 * commit shares one INSERT among the checks arriving together; a row the database refuses must fail
 * only its own check.
 */
describe('consultation group commit isolation', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let db: Client;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'batch-a');
    db = new Client({ connectionString: stack.databaseUrl('verdict') });
    await db.connect();
    // A row the database refuses although the request is valid (U+0000, the natural poison, is now
    // refused at the door): a CHECK constraint that only the poisoned check's action violates.
    await db.query(`ALTER TABLE consultations ADD CONSTRAINT e2e_poison CHECK (action <> '${POISON}')`);
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  const agent = () => verdictApi(stack, t.agent.key, t.id);
  const check = (action: string) => agent().check({ action, resource: 'r', scope: {} });
  const metric = async (series: RegExp): Promise<number> => {
    const text = (await request(stack.verdict.url).get('/metrics').expect(200)).text;
    const line = text.split('\n').find((l) => series.test(l));
    return line ? Number(line.split(' ').pop()) : 0;
  };
  const pending = () => metric(/^arbiter_consultation_commit_pending[{ ]/);
  const batches = () => metric(/^arbiter_consultation_commit_batch_size_count[{ ]/);
  const smallBatches = () => metric(/^arbiter_consultation_commit_batch_size_bucket\{.*le="16"/);

  it('answers 30 good checks sharing a batch with a poisoned one, and fails only that one with a bare 500', async () => {
    await check('warm.up').expect(200); // the tenant's signing key and snapshot exist before the table is locked

    // Hold every INSERT: the two batches the writer may have in flight wait on the lock, and the
    // checks sent next queue behind them, to go out together as one batch once the lock is released.
    const lock = new Client({ connectionString: stack.databaseUrl('verdict') });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE consultations IN SHARE MODE');
    let released = false;
    try {
      const blockers = [check('batch.blocker'), check('batch.blocker')].map((r) => r.then((res) => res));
      await eventually('two pending checks', () => pending(), { until: (v) => expect(v).toBe(2), timeoutMs: 10_000 });
      const good = Array.from({ length: 29 }, (_, i) => check(`batch.good.${i}`).then((res) => res));
      const poisoned = check(POISON).then((res) => res);
      await eventually('32 pending checks', () => pending(), { until: (v) => expect(v).toBe(32), timeoutMs: 10_000 });
      const batchesBefore = await batches();
      const smallBefore = await smallBatches();

      await lock.query('COMMIT');
      released = true;
      const answers = await Promise.all([...blockers, ...good]);
      const bad = await poisoned;

      expect(answers.map((r) => r.status)).toEqual(Array(31).fill(200));
      expect(bad.status).toBe(500);
      expect(bad.body).toEqual({ code: 'internal_error', message: 'Internal server error', details: { error_id: expect.any(String) } });
      expect(bad.text).not.toMatch(/e2e_poison|constraint|consultations/);
      for (const res of answers) await agent().consultation(res.body.consultation_id).expect(200);
      // The poisoned row went out with the 29 good ones: exactly one more batch, and not a small one.
      expect(await batches()).toBe(batchesBefore + 1);
      expect(await smallBatches()).toBe(smallBefore);
      const { rows } = await db.query<{ action: string; n: number }>(
        'SELECT action, count(*)::int AS n FROM consultations WHERE tenant_id = $1 GROUP BY action',
        [t.id],
      );
      expect(rows.find((r) => r.action === POISON)).toBeUndefined();
      expect(rows.filter((r) => r.action.startsWith('batch.')).reduce((n, r) => n + r.n, 0)).toBe(31);
      expect(await pending()).toBe(0);
    } finally {
      if (!released) await lock.query('ROLLBACK');
      await lock.end();
    }
  });
});
