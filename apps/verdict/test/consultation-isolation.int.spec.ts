import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import type { ConsultationRecord } from '../src/domain/consultation-record';
import { ConsultationRepository } from '../src/repositories/consultations.repository';

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('verdict_isolation');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 4 });
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

const record = (id: string, action = 'a'): ConsultationRecord =>
  ({
    id,
    tenant_id: 'tnt-iso',
    caller_principal_id: 'agn-1',
    requested_at: new Date().toISOString(),
    action,
    verdict: 'allowed',
    dominating_rule_id: null,
  }) as ConsultationRecord;
const sealed = (r: ConsultationRecord) => ({ record: r, json: JSON.stringify(r) });

/**
 * A statement that stores consultations: an INSERT, or (sealing on) a WITH whose INSERT into consultations
 * also writes the seal_outbox rows (docs/operations.md "Seal relay").
 */
const CONSULTATION_INSERT = /^\s*(?:WITH c AS \(\s*)?INSERT INTO consultations\b/i;

/** Counts the INSERTs the repository sends. */
function countingPool(inner: Pool): { pool: Pool; inserts: () => number } {
  let n = 0;
  const pool = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (text: string, values?: unknown[]) => {
        if (CONSULTATION_INSERT.test(text)) n++;
        return target.query(text, values);
      };
    },
  });
  return { pool, inserts: () => n };
}

/**
 * A batch of exactly `rows`: with one batch in flight at a time, a first save holds the writer
 * while the others queue; they then go out together as the second batch.
 */
async function saveAsOneBatch(rows: ConsultationRecord[], pool: Pool) {
  const batches: number[] = [];
  const sut = new ConsultationRepository(pool, { maxInFlight: 1, onBatch: (n) => batches.push(n) });
  const first = sut.save(sealed(record(`cns-iso-lead-${rows[0].id}`)));
  const results = await Promise.allSettled(rows.map((r) => sut.save(sealed(r))));
  await first;
  expect(batches).toEqual([1, rows.length]);
  return results;
}

describe(`${ConsultationRepository.name} group commit isolation`, () => {
  it('commits and answers every good record of a batch the database refuses because of one row (U+0000 in a text column)', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => record(`cns-iso-a-${i}`, i === 11 ? 'bad\u0000action' : 'a'));
    const counted = countingPool(pool);
    const results = await saveAsOneBatch(rows, counted.pool);

    expect(results.map((r) => r.status)).toEqual(rows.map((_, i) => (i === 11 ? 'rejected' : 'fulfilled')));
    expect((results[11] as PromiseRejectedResult).reason).toMatchObject({ code: '22021' });
    const { rows: stored } = await pool.query<{ id: string }>("SELECT id FROM consultations WHERE id LIKE 'cns-iso-a-%' ORDER BY id");
    expect(stored.map((r) => r.id).sort()).toEqual(
      rows
        .filter((_, i) => i !== 11)
        .map((r) => r.id)
        .sort(),
    );
    // Each stored record has its seal_outbox row, written by the same statement; the refused one has none.
    const { rows: seals } = await pool.query<{ client_ref: string }>(
      "SELECT client_ref FROM seal_outbox WHERE client_ref LIKE 'cns-iso-a-%'",
    );
    expect(seals.map((r) => r.client_ref).sort()).toEqual(stored.map((r) => r.id).sort());
    // Halving, not a row at a time: the lead batch, the refused batch, then about 2·log2(25) more.
    expect(counted.inserts()).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(25)));
  });

  it('isolates several faulty rows, at the edges too, each with its own error', async () => {
    const rows = Array.from({ length: 16 }, (_, i) => record(`cns-iso-b-${i}`));
    const taken = record('cns-iso-b-taken');
    await new ConsultationRepository(pool).save(sealed(taken));
    rows[0] = taken; // 23505: the key (id, keep_until) exists
    rows[15] = record('cns-iso-b-15', 'x\u0000'); // 22021
    const results = await saveAsOneBatch(rows, pool);

    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(2);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect((results[15] as PromiseRejectedResult).reason).toMatchObject({ code: '22021' });
    const { rows: stored } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM consultations WHERE id ~ '^cns-iso-b-[0-9]+$'",
    );
    expect(stored[0].n).toBe(14);
  });

  it("fails the whole batch alike when the failure is not a row's (nothing committed, every caller told)", async () => {
    const rows = Array.from({ length: 5 }, (_, i) => record(`cns-iso-c-${i}`));
    const broken = new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (text: string, values?: unknown[]) =>
          CONSULTATION_INSERT.test(text) && (values?.[0] as string[]).length > 1
            ? Promise.reject(Object.assign(new Error('terminating connection'), { code: '57P01' }))
            : target.query(text, values);
      },
    });
    const results = await saveAsOneBatch(rows, broken);

    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    const { rows: stored } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM consultations WHERE id LIKE 'cns-iso-c-%'");
    expect(stored[0].n).toBe(0);
    const { rows: seals } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM seal_outbox WHERE client_ref LIKE 'cns-iso-c-%'",
    );
    expect(seals[0].n).toBe(0);
  });
});
