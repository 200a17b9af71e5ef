// How the seal outbox is stored (ADR 0039): every partition of either service's seal_outbox, those of the migrations
// and those the maintenance makes, leaves half of each page free, so that the relay's lease updates a row on its own
// page (a HOT update) instead of writing a second copy elsewhere. Against the services' own migrations.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { createTestDatabase, testPool } from '@arbiter/testing';
import { applyMigrations } from './migrations';
import { PartitionMaintenance } from './partitions/maintenance';
import { insertSealRow, SEAL_OUTBOX_PARTITIONS, SealOutboxStore } from './seal-outbox';

jest.setTimeout(120_000);

const FILLFACTOR_MIGRATION = '20270104100000_seal_outbox_fillfactor';

/** A consultation's seal as the gateway writes it (docs/ledger-formats.md), about 350 bytes of payload. */
const sealRow = (i: number) => ({
  tenant_id: 'tnt-0123456789abcdef01234567',
  stream_id: 'arbiter.tnt-0123456789abcdef01234567.consultations',
  client_ref: `cns-${String(i).padStart(24, '0')}`,
  payload: {
    consultation_id: `cns-${String(i).padStart(24, '0')}`,
    normative_hash: `sha256:${'a'.repeat(64)}`,
    context_hash: `sha256:${'b'.repeat(64)}`,
    verdict: i % 3 ? 'allowed' : 'approval_required',
    signing_kid: 'tnt-0123456789abcdef01234567-k1',
    decided_at: new Date(1_790_000_000_000 + i).toISOString(),
  },
});

/** Each outbox row's page (the block of its ctid), by client_ref. */
async function pages(pool: Pool): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ ref: string; page: string }>(
    `SELECT client_ref AS ref, (ctid::text::point)[0]::bigint::text AS page FROM seal_outbox`,
  );
  return new Map(rows.map((r) => [r.ref, r.page]));
}

/** Inserts `n` rows one statement each (as the services write them, each with its change), then leases them all. */
async function insertAndLease(pool: Pool, n: number): Promise<{ before: Map<string, string>; after: Map<string, string> }> {
  for (let i = 0; i < n; i++) await insertSealRow(pool, sealRow(i));
  const before = await pages(pool);
  const lease = await new SealOutboxStore(pool, 'service:verdict').leaseAnyTenant(1000, 60_000);
  expect(lease.items).toHaveLength(n);
  return { before, after: await pages(pool) };
}

const moved = ({ before, after }: { before: Map<string, string>; after: Map<string, string> }) =>
  [...before].filter(([ref, page]) => after.get(ref) !== page).length;

describe.each(['verdict', 'registry'])('the %s seal_outbox', (service) => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase(`${service}_seal_outbox_storage`);
    pool = testPool(db.url, 1);
    // The database as the release before left it: its migrations, and a partition its maintenance made.
    const migrations = path.join(__dirname, `../../../prisma/${service}/migrations`);
    const earlier = await mkdtemp(path.join(os.tmpdir(), 'arbiter-seal-outbox-'));
    try {
      await cp(migrations, earlier, { recursive: true, filter: (from) => !from.includes(FILLFACTOR_MIGRATION) });
      await applyMigrations(db.url, earlier);
    } finally {
      await rm(earlier, { recursive: true, force: true });
    }
    await pool.query(
      `CREATE TABLE seal_outbox_p20270601t0000 PARTITION OF seal_outbox FOR VALUES FROM ('2027-06-01T00:00Z') TO ('2027-06-02T00:00Z')`,
    );
    await applyMigrations(db.url, migrations);
    await new PartitionMaintenance({ pool, tables: [SEAL_OUTBOX_PARTITIONS], intervalMs: 86_400_000, offsets: async () => [] }).run();
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('fills every partition to half its pages: those of the migrations and those made since', async () => {
    const { rows } = await pool.query<{ name: string; options: string[] | null }>(
      `SELECT c.relname AS name, c.reloptions AS options FROM pg_partition_tree('seal_outbox') t JOIN pg_class c ON c.oid = t.relid
        WHERE t.isleaf ORDER BY 1`,
    );
    // The DEFAULT partition and the earlier release's (set by the migration), the dated ones made around now since.
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['seal_outbox_default', 'seal_outbox_p20270601t0000']));
    for (const r of rows) expect(r).toEqual({ name: r.name, options: ['fillfactor=50'] });
  });

  it('leases every row where it lies (a HOT update); with full pages the lease moves rows to other pages', async () => {
    const hot = await insertAndLease(pool, 300);
    expect(hot.before.size).toBe(300);
    expect(moved(hot)).toBe(0);

    // The other side, so that the check above can fail: the same rows in the same partition, filled to the brim.
    const { rows } = await pool.query<{ part: string }>(`SELECT DISTINCT tableoid::regclass::text AS part FROM seal_outbox`);
    expect(rows).toHaveLength(1);
    await pool.query('DELETE FROM seal_outbox');
    await pool.query(`ALTER TABLE ${rows[0].part} SET (fillfactor = 100)`);
    await pool.query(`VACUUM ${rows[0].part}`);
    try {
      const full = await insertAndLease(pool, 300);
      expect(moved(full)).toBeGreaterThan(250);
    } finally {
      await pool.query('DELETE FROM seal_outbox');
      await pool.query(`ALTER TABLE ${rows[0].part} SET (fillfactor = 50)`);
    }
  });
});
