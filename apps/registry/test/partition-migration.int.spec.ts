// The partitioning migrations on a populated registry database (docs/operations.md "Partitions", ADR 0034): tens
// of thousands of events, deliveries and attempts; the previous version's writes and reads keep running while the
// migrations apply; every row is readable afterwards, in the very table files it was in.
import { rm } from 'node:fs/promises';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase, migrationsWithout, whileRunning } from '@arbiter/testing';
import type { Pool } from 'pg';
import { registryMigrationsDir } from '../src/context';

jest.setTimeout(180_000);

const ROWS = 30_000;
/** Partitioning and every migration made after it: what the previous version did not have. */
const FROM_PARTITIONING = /^(20261231100[0-2]00_partitions|20261231(1[1-9]|2\d)\d{4}_|20(2[7-9]|[3-9]\d))/;
const TABLES = ['events', 'webhook_deliveries', 'webhook_attempts', 'seal_outbox'];

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('registry_partition_migration');
  const before = await migrationsWithout(registryMigrationsDir(), FROM_PARTITIONING);
  await applyMigrations(db.url, before);
  await rm(before, { recursive: true });
  // A generous lock timeout: a statement the migration blocks for longer fails, and the test with it.
  pool = createPool({ url: db.url, max: 8, timeoutMs: 20_000 });
  await pool.query(`INSERT INTO tenants (id, slug, name) VALUES ('tnt-m', 'm', 'm')`);
  await pool.query(`INSERT INTO webhook_subscriptions (id, tenant_id, url) VALUES ('whs-m', 'tnt-m', 'https://example.test/h')`);
  await pool.query(
    `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, idempotency_key)
     SELECT 'evt-' || lpad(to_hex(g), 16, '0'), g, 'tnt-m', 'rule.created', 'rule', 'rul-' || g, '{}', 'k-' || g FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(`SELECT setval('events_seq_seq', $1)`, [ROWS]);
  await pool.query(
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, max_attempts, status)
     SELECT 'dlv-old-' || g, 'tnt-m', 'whs-m', 'evt-' || lpad(to_hex(g), 16, '0'), 'rule.created', 8, 'succeeded' FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO webhook_attempts (id, tenant_id, delivery_id, subscription_id, attempt, outcome)
     SELECT 'wat-old-' || g, 'tnt-m', 'dlv-old-' || g, 'whs-m', 1, 'succeeded' FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload)
     SELECT 'tnt-m', 'arbiter.tnt-m.rules', 'rv-' || g, '{}' FROM generate_series(1, $1) g`,
    [ROWS],
  );
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

/** What the previous version does: an event with its outbox row, a delivery and its attempt, the feed, a lookup. */
async function previousVersionRound(i: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ seq: string }>(`SELECT nextval(pg_get_serial_sequence('"events"', 'seq'))::text AS seq`);
    const seq = BigInt(rows[0].seq);
    const id = `evt-${seq.toString(16).padStart(16, '0')}`;
    await client.query(
      `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, created_at, idempotency_key)
       VALUES ($1, $2, 'tnt-m', 'rule.updated', 'rule', 'rul-x', '{}', now(), $3)`,
      [id, seq.toString(), `during-${i}`],
    );
    await client.query(`INSERT INTO outbox (tenant_id, event_id) VALUES ('tnt-m', $1)`, [id]);
    await client.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, max_attempts) VALUES ($1, 'tnt-m', 'whs-m', $2, 'rule.updated', 8)
       ON CONFLICT DO NOTHING`,
      [`dlv-during-${i}`, id],
    );
    await client.query(
      `INSERT INTO webhook_attempts (id, tenant_id, delivery_id, subscription_id, attempt) VALUES ($1, 'tnt-m', $2, 'whs-m', 1)`,
      [`wat-during-${i}`, `dlv-during-${i}`],
    );
    await client.query(
      `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload) VALUES ('tnt-m', 'arbiter.tnt-m.rules', $1, '{}')`,
      [`rv-during-${i}`],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  await pool.query(`SELECT id FROM events WHERE tenant_id = 'tnt-m' AND seq > $1 ORDER BY seq LIMIT 50`, [ROWS - 100]);
  const found = await pool.query(`SELECT id FROM events WHERE tenant_id = 'tnt-m' AND idempotency_key = $1`, [`k-${1 + (i % ROWS)}`]);
  if (found.rowCount !== 1) throw new Error(`k-${1 + (i % ROWS)} not found`);
  await pool.query(`UPDATE webhook_deliveries SET updated_at = now() WHERE id = $1`, [`dlv-old-${1 + (i % ROWS)}`]);
}

describe('partitioning a populated registry database', () => {
  it('keeps the previous version answering while it runs, and every row readable after, in place', async () => {
    const { rows: before } = await pool.query<{ relname: string; relfilenode: string }>(
      `SELECT relname, relfilenode::text FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'`,
      [TABLES],
    );
    const {
      result: applied,
      rounds,
      roundsDuring,
    } = await whileRunning(() => applyMigrations(db.url, registryMigrationsDir()), previousVersionRound);
    expect(applied.applied.slice(0, 3)).toEqual([
      '20261231100000_partitions',
      '20261231100100_partitions_validate',
      '20261231100200_partitions_attach',
    ]);
    // The previous version's statements all succeeded (a failure fails the whole), some while the migrations ran.
    expect(roundsDuring).toBeGreaterThan(0);

    const { rows: parts } = await pool.query<{ parent: string; relfilenode: string }>(
      `SELECT p.relname AS parent, c.relfilenode::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = ANY($1::text[])`,
      [TABLES],
    );
    for (const b of before) expect(parts.filter((p) => p.parent === b.relname).map((p) => p.relfilenode)).toContain(b.relfilenode);
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);
    expect(await count(`SELECT count(*)::text AS n FROM events`)).toBe(ROWS + rounds);
    expect(await count(`SELECT count(*)::text AS n FROM webhook_deliveries`)).toBe(ROWS + rounds);
    expect(await count(`SELECT count(*)::text AS n FROM webhook_attempts`)).toBe(ROWS + rounds);
    expect(await count(`SELECT count(*)::text AS n FROM seal_outbox`)).toBe(ROWS + rounds);
    expect(await count(`SELECT count(*)::text AS n FROM events WHERE tenant_id = 'tnt-m' AND idempotency_key = 'k-17'`)).toBe(1);
  });
});
