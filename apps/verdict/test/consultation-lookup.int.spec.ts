// A consultation by its id (docs/operations.md "Partitions"): looked for first where a record written under a
// retention in use lies, then in every partition; the same row either way.
import { mintTenantId } from '@arbiter/auth';
import { applyMigrations, createPool, newTimeOrderedId } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import type { ConsultationRecord } from '../src/domain/consultation-record';
import { ConsultationRepository } from '../src/repositories/consultations.repository';

jest.setTimeout(60_000);

const DAY = 86_400_000;
const TENANT = mintTenantId('tnt-look');
const OTHER = mintTenantId('tnt-other');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;
let retentions: number[];
let repo: ConsultationRepository;
/** The SELECTs of consultations the repository ran, with their parameters. */
let selects: Array<{ sql: string; params: unknown[] }>;

beforeAll(async () => {
  db = await createTestDatabase('verdict_lookup');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 4 });
  // A month of daily partitions around now + 90 days, as maintenance keeps them for the default retention.
  const { rows: made } = await pool.query<{ name: string }>(
    `SELECT relid::regclass::text AS name FROM pg_partition_tree('consultations') WHERE isleaf AND relid::regclass::text <> 'consultations_default'`,
  );
  for (const r of made) await pool.query(`DROP TABLE ${r.name}`);
  const first = Math.floor((Date.now() + 75 * DAY) / DAY) * DAY;
  for (let d = 0; d < 30; d++) {
    const from = new Date(first + d * DAY);
    await pool.query(
      `CREATE TABLE consultations_p${from.toISOString().slice(0, 10).replaceAll('-', '')}t0000 PARTITION OF consultations
         FOR VALUES FROM ('${from.toISOString()}') TO ('${new Date(from.getTime() + DAY).toISOString()}')`,
    );
  }
  const query = pool.query.bind(pool) as (sql: string, params?: unknown[]) => Promise<unknown>;
  jest.spyOn(pool, 'query').mockImplementation(((sql: string, params?: unknown[]) => {
    if (typeof sql === 'string' && sql.startsWith('SELECT') && sql.includes('FROM consultations'))
      selects.push({ sql, params: params ?? [] });
    return query(sql, params);
  }) as never);
});
afterAll(async () => {
  await repo.drain();
  await pool.end();
  await db.drop();
});
beforeEach(() => {
  retentions = [90 * DAY];
  repo = new ConsultationRepository(pool, { retentions: () => retentions });
});

/** Saves a record of `tenant` whose id was made `lagMs` before its requested_at, kept for `retentionMs`. */
async function saved(opts: { retentionMs?: number; lagMs?: number; tenant?: string; id?: string } = {}): Promise<ConsultationRecord> {
  const requestedAt = Date.now();
  const record = {
    id: opts.id ?? newTimeOrderedId('cns-', requestedAt - (opts.lagMs ?? 3)),
    tenant_id: opts.tenant ?? TENANT,
    caller_principal_id: 'agn-1',
    requested_at: new Date(requestedAt).toISOString(),
    action: 'a',
    verdict: 'allowed',
    dominating_rule_id: null,
  } as ConsultationRecord;
  await repo.save({ record, json: JSON.stringify(record) } as never, null, null, opts.retentionMs ?? 90 * DAY);
  return record;
}

/** What a lookup found, and how many SELECTs it took. */
async function lookedUp<T>(run: () => Promise<T>): Promise<{ found: T; selects: number }> {
  selects = [];
  const found = await run();
  return { found, selects: selects.length };
}

describe('a consultation by its id', () => {
  it('finds a record written under a retention in use with one SELECT, by every lookup', async () => {
    const r = await saved();
    expect(await lookedUp(() => repo.find(TENANT, r.id))).toEqual({ found: expect.objectContaining({ id: r.id }), selects: 1 });
    expect(await lookedUp(() => repo.findAnyTenant(r.id))).toEqual({
      found: expect.objectContaining({ tenant_id: TENANT, record: expect.objectContaining({ id: r.id }) }),
      selects: 1,
    });
    expect(await lookedUp(() => repo.findWithBasisAnyTenant(r.id))).toEqual({
      found: expect.objectContaining({ tenant_id: TENANT, explanation_basis: null }),
      selects: 1,
    });
  });

  it('plans that first look over the partitions its ranges touch, not over every one', async () => {
    const r = await saved();
    selects = [];
    await repo.find(TENANT, r.id);
    const [{ sql, params }] = selects;
    const { rows } = await pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const scanned = (JSON.stringify(rows[0]['QUERY PLAN']).match(/"Relation Name":"consultations_[^"]+"/g) ?? []).length;
    const all = await pool.query(`SELECT 1 FROM pg_partition_tree('consultations') WHERE isleaf`);
    expect(all.rowCount).toBe(31);
    expect(scanned).toBeGreaterThanOrEqual(1);
    expect(scanned).toBeLessThanOrEqual(2);
  });

  it('finds a record written under a retention no longer in use, or longer after its id was made, in every partition', async () => {
    const shorter = await saved({ retentionMs: 30 * DAY });
    expect(await lookedUp(() => repo.find(TENANT, shorter.id))).toEqual({ found: expect.objectContaining({ id: shorter.id }), selects: 2 });
    const resolvedLater = await saved({ lagMs: 3 * 3_600_000 });
    expect(await lookedUp(() => repo.find(TENANT, resolvedLater.id))).toEqual({
      found: expect.objectContaining({ id: resolvedLater.id }),
      selects: 2,
    });
    // Once the registry names the retention again, the first look finds it.
    retentions = [30 * DAY, 90 * DAY];
    expect(await lookedUp(() => repo.find(TENANT, shorter.id))).toEqual({ found: expect.objectContaining({ id: shorter.id }), selects: 1 });
  });

  it('finds a record whose id is of another form with one SELECT over every partition', async () => {
    const legacy = await saved({ id: 'cns-legacy-1' });
    expect(await lookedUp(() => repo.find(TENANT, legacy.id))).toEqual({ found: expect.objectContaining({ id: legacy.id }), selects: 1 });
    expect(selects[0].sql).not.toContain('keep_until');
  });

  it("answers no record for another tenant's id, nor for an id nowhere", async () => {
    const theirs = await saved({ tenant: OTHER });
    expect(await lookedUp(() => repo.find(TENANT, theirs.id))).toEqual({ found: null, selects: 2 });
    expect((await repo.findAnyTenant(theirs.id))?.tenant_id).toBe(OTHER);
    expect(await lookedUp(() => repo.find(TENANT, newTimeOrderedId('cns-', Date.now())))).toEqual({ found: null, selects: 2 });
    expect(await repo.findAnyTenant('cns-nowhere')).toBeNull();
  });
});
