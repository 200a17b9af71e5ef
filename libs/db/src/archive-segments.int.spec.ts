import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { createTestDatabase, testPool } from '@arbiter/testing';
import { archiveSegmentProblem, ArchiveSegmentStore, type ArchiveSegmentRecord } from './archive-segments';

// A partitioned table of the shape the services' migrations give `consultations` (keep_until the key), and the
// archive_segments migrations as the services apply them.
const TABLES = `
  CREATE TABLE consultations (id text NOT NULL, tenant_id text NOT NULL, keep_until timestamptz NOT NULL, record json NOT NULL)
    PARTITION BY RANGE (keep_until);
  CREATE TABLE consultations_p20261127t1400 PARTITION OF consultations FOR VALUES FROM ('2026-11-27T14:00Z') TO ('2026-11-27T14:01Z');
  CREATE TABLE consultations_default PARTITION OF consultations DEFAULT;
  CREATE TABLE events (id text NOT NULL, tenant_id text NOT NULL, keep_until timestamptz NOT NULL) PARTITION BY RANGE (keep_until);
  CREATE TABLE events_p20261127t1400 PARTITION OF events FOR VALUES FROM ('2026-11-27T14:00Z') TO ('2026-11-27T14:01Z');
  CREATE TABLE webhook_deliveries (id text NOT NULL, tenant_id text NOT NULL, status text NOT NULL, keep_until timestamptz NOT NULL)
    PARTITION BY RANGE (keep_until);
  CREATE TABLE webhook_deliveries_p20261127t1400 PARTITION OF webhook_deliveries FOR VALUES FROM ('2026-11-27T14:00Z') TO ('2026-11-27T14:01Z');
  CREATE TABLE webhook_attempts (id text NOT NULL, tenant_id text NOT NULL, delivery_id text NOT NULL, attempt int NOT NULL,
    outcome text NOT NULL, keep_until timestamptz NOT NULL) PARTITION BY RANGE (keep_until);
  CREATE TABLE webhook_attempts_default PARTITION OF webhook_attempts DEFAULT;
`;

const segment = (over: Partial<ArchiveSegmentRecord>): ArchiveSegmentRecord => ({
  tenant_id: 'tnt-a',
  kind: 'consultations',
  partition: 'consultations_p20261127t1400',
  url: 'file:///x',
  from: '2026-11-27T14:00:00.000Z',
  to: '2026-11-27T14:01:00.000Z',
  count: 2,
  sha256: `sha256:${'0'.repeat(64)}`,
  first_id: 'cns-1',
  last_id: 'cns-3',
  fact_id: 'fct-1',
  ...over,
});

describe(ArchiveSegmentStore.name, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  let sut: ArchiveSegmentStore;

  beforeAll(async () => {
    db = await createTestDatabase('archive_segments');
    pool = testPool(db.url, 3);
    const migrations = await Promise.all(
      ['20261231110000_archive_segments', '20270108100000_archive_index_digest'].map((m) =>
        readFile(path.join(__dirname, `../../../prisma/verdict/migrations/${m}/migration.sql`), 'utf8'),
      ),
    );
    await pool.query(TABLES + migrations.join('\n'));
    // The record text with spacing no JSON writer would produce: the segment line must keep it as stored.
    await pool.query(`INSERT INTO consultations VALUES
      ('cns-3', 'tnt-a', '2026-11-27T14:00:30Z', '{"id": "cns-3",  "n":3}'),
      ('cns-1', 'tnt-a', '2026-11-27T14:00:10Z', '{"id":"cns-1","n":1.0}'),
      ('cns-2', 'tnt-b', '2026-11-27T14:00:20Z', '{"id":"cns-2"}'),
      ('cns-9', 'tnt-a', '2027-01-01T00:00:00Z', '{"id":"cns-9"}')`);
    sut = new ArchiveSegmentStore(pool, ['consultations']);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('finds a partition of its own archived tables with its bounds, and nothing else', async () => {
    const p = await sut.partitionAnyTenant('consultations_p20261127t1400');
    expect(p).toMatchObject({ table: { kind: 'consultations' }, from: new Date('2026-11-27T14:00Z'), to: new Date('2026-11-27T14:01Z') });
    expect(await sut.partitionAnyTenant('consultations_default')).toBeNull();
    expect(await sut.partitionAnyTenant('events_p20261127t1400')).toBeNull(); // not among this store's tables
    expect(await sut.partitionAnyTenant('consultations_p20991127t1400')).toBeNull();
    expect(await sut.partitionAnyTenant('x"; DROP TABLE consultations; --')).toBeNull();
  });

  it("lists the tenants with rows in a partition and streams one tenant's rows by id, the record text as stored", async () => {
    const p = (await sut.partitionAnyTenant('consultations_p20261127t1400'))!;
    expect(await sut.tenantsAnyTenant(p)).toEqual([
      { tenant_id: 'tnt-a', count: 2, archived_count: null },
      { tenant_id: 'tnt-b', count: 1, archived_count: null },
    ]);
    const lines = [];
    for await (const l of sut.linesAnyTenant(p, 'tnt-a')) lines.push(l);
    expect(lines.map((l) => l.id)).toEqual(['cns-1', 'cns-3']);
    expect(lines[1].line).toContain('"record":{"id": "cns-3",  "n":3}');
    expect(lines[0].line).toContain('"n":1.0');
  });

  it('gives lines that restore into a copy of the table with the record text unchanged (docs/operations.md "Restore")', async () => {
    const p = (await sut.partitionAnyTenant('consultations_p20261127t1400'))!;
    await pool.query('CREATE TABLE consultations_restored (LIKE consultations)');
    for await (const { line } of sut.linesAnyTenant(p, 'tnt-a'))
      await pool.query(
        'INSERT INTO consultations_restored SELECT r.* FROM json_populate_record(NULL::consultations_restored, $1::json) r',
        [line],
      );
    const { rows } = await pool.query<{ a: string; b: string }>(
      `SELECT o.record::text AS a, r.record::text AS b FROM consultations o JOIN consultations_restored r USING (id, keep_until) ORDER BY id`,
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.b).toBe(r.a);
  });

  it("gives a delivery line with its attempts in order, and refuses another service's table", async () => {
    await pool.query(`INSERT INTO webhook_deliveries VALUES ('dlv-1', 'tnt-a', 'succeeded', '2026-11-27T14:00:10Z')`);
    await pool.query(`INSERT INTO webhook_attempts VALUES
      ('att-2', 'tnt-a', 'dlv-1', 2, 'succeeded', '2026-11-27T14:00:10Z'),
      ('att-1', 'tnt-a', 'dlv-1', 1, 'failed', '2026-11-27T14:00:10Z'),
      ('att-9', 'tnt-b', 'dlv-1', 1, 'failed', '2026-11-27T14:00:10Z')`);
    const registry = new ArchiveSegmentStore(pool, ['events', 'webhook_deliveries']);
    expect(await registry.partitionAnyTenant('consultations_p20261127t1400')).toBeNull();
    const p = (await registry.partitionAnyTenant('webhook_deliveries_p20261127t1400'))!;
    expect(p.table.kind).toBe('deliveries');
    const lines = [];
    for await (const l of registry.linesAnyTenant(p, 'tnt-a')) lines.push(JSON.parse(l.line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ id: 'dlv-1', status: 'succeeded' });
    expect(lines[0].attempts.map((a: { id: string }) => a.id)).toEqual(['att-1', 'att-2']);
  });

  it('gives its connection back even when the reader stops early', async () => {
    const p = (await sut.partitionAnyTenant('consultations_p20261127t1400'))!;
    for (let i = 0; i < 5; i++) for await (const _ of sut.linesAnyTenant(p, 'tnt-a')) break;
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    expect(pool.totalCount).toBeLessThanOrEqual(3);
  });

  it('opens the gate only when every tenant with rows has a segment with the same count', async () => {
    const partition = 'consultations_p20261127t1400';
    expect(await sut.covered(partition, 'consultations')).toBe(false);
    await sut.recordAnyTenant(segment({}));
    expect(await sut.covered(partition, 'consultations')).toBe(false); // tnt-b has none
    await sut.recordAnyTenant(segment({ tenant_id: 'tnt-b', count: 0, first_id: 'cns-2', last_id: 'cns-2' }));
    expect(await sut.covered(partition, 'consultations')).toBe(false); // a count that is not its rows'
    await pool.query(`UPDATE archive_segments SET count = 1 WHERE tenant_id = 'tnt-b'`);
    expect(await sut.covered(partition, 'consultations')).toBe(true);
    expect(await sut.covered(partition, 'events')).toBe(false); // not this store's table
  });

  it('records a segment once: a second record answers the first', async () => {
    const again = await sut.recordAnyTenant(segment({ sha256: `sha256:${'1'.repeat(64)}` }));
    expect(again).toMatchObject({ created: false, segment: { sha256: `sha256:${'0'.repeat(64)}`, count: 2 } });
    expect(await sut.segmentsOfPartitionAnyTenant('consultations_p20261127t1400')).toHaveLength(2);
  });

  it("keeps the digest of the segment's index when given (null when not), and refuses one that is not sha256:<hex>", async () => {
    const p = (await sut.partitionAnyTenant('consultations_p20261127t1400'))!;
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(archiveSegmentProblem(segment({ index_sha256: digest }), p)).toBeNull();
    expect(archiveSegmentProblem(segment({ index_sha256: null }), p)).toBeNull();
    expect(archiveSegmentProblem(segment({ index_sha256: 'sha256:xyz' }), p)).toBe('index_sha256 must be sha256:<64 hex> or null');
    const first = (await sut.segmentsOfPartitionAnyTenant('consultations_p20261127t1400')).find((s) => s.tenant_id === 'tnt-a')!;
    expect(first.index_sha256).toBeNull();
    const other = await sut.recordAnyTenant(segment({ tenant_id: 'tnt-d', count: 0, first_id: null, last_id: null, index_sha256: digest }));
    expect(other).toMatchObject({ created: true, segment: { tenant_id: 'tnt-d', index_sha256: digest } });
    await pool.query(`DELETE FROM archive_segments WHERE tenant_id = 'tnt-d'`);
  });

  it("finds the caller's segments whose id range holds an id, and a bounded number of other tenants'", async () => {
    expect((await sut.segmentsHolding('tnt-a', 'consultations', 'cns-2')).map((s) => s.tenant_id)).toEqual(['tnt-a']);
    expect(await sut.segmentsHolding('tnt-b', 'consultations', 'cns-1')).toEqual([]);
    expect(await sut.segmentsHolding('tnt-a', 'consultations', 'cns-4')).toEqual([]);
    expect(await sut.segmentsHolding('tnt-a', 'events', 'cns-2')).toEqual([]);
    expect((await sut.otherTenantsHoldingAnyTenant('tnt-a', 'consultations', 'cns-2', 3)).map((s) => s.tenant_id)).toEqual(['tnt-b']);
    expect(await sut.otherTenantsHoldingAnyTenant('tnt-a', 'consultations', 'cns-1', 3)).toEqual([]);
    expect(await sut.otherTenantsHoldingAnyTenant('tnt-c', 'consultations', 'cns-2', 1)).toHaveLength(1);
  });
});
