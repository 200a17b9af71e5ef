// Partition maintenance of the registry against a real PostgreSQL (docs/operations.md "Partitions"), with
// one-minute partitions and a clock the test moves.
import { alignDown, applyMigrations, createPool, PartitionMaintenance, partitionName } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { registryMigrationsDir } from '../src/context';
import { registryTables } from '../src/partitions';
import { HINTS_MAX_AGE_MS, RetentionService } from '../src/services/retention.service';

jest.setTimeout(60_000);

const MIN = 60_000;
const DAY = 86_400_000;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('registry_partitions');
  await applyMigrations(db.url, registryMigrationsDir());
  pool = createPool({ url: db.url, max: 6 });
  await pool.query(
    `INSERT INTO tenants (id, slug, name, settings) VALUES ('tnt-p', 'p', 'p', '{"retention": {"deliveries": "2m", "events": "3m"}}'),
       ('tnt-q', 'q', 'q', '{}')`,
  );
  await pool.query(`INSERT INTO webhook_subscriptions (id, tenant_id, url) VALUES ('whs-p', 'tnt-p', 'https://example.test/h')`);
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

const exists = async (name: string) => (await pool.query(`SELECT to_regclass($1) AS t`, [name])).rows[0].t !== null;

let clock = alignDown(Date.now() + 2 * DAY, MIN) + 30_000;
const maintenance = () =>
  new PartitionMaintenance({
    pool,
    tables: registryTables(),
    intervalMs: MIN,
    offsets: async (t) => {
      const inUse = await new RetentionService(pool).inUse();
      return t.table === 'events' ? inUse.events : t.table === 'seal_outbox' ? [] : inUse.deliveries;
    },
    now: () => clock,
  });

describe('registry partition maintenance (PARTITION_INTERVAL=1m)', () => {
  it("answers the retentions the tenants' settings name, defaults included", async () => {
    expect(await new RetentionService(pool).inUse()).toEqual({
      consultations: [90 * DAY],
      deliveries: [2 * MIN, 30 * DAY],
      events: [3 * MIN, 90 * DAY],
    });
  });

  it('hands the same retentions out as lookup hints for a minute, then reads them again; none when they cannot be read', async () => {
    const service = new RetentionService(pool);
    const t0 = Date.now();
    expect((await service.hints(t0))?.deliveries).toEqual([2 * MIN, 30 * DAY]);
    await pool.query(`UPDATE tenants SET settings = '{"retention": {"deliveries": "5m"}}' WHERE id = 'tnt-q'`);
    try {
      expect((await service.hints(t0 + HINTS_MAX_AGE_MS))?.deliveries).toEqual([2 * MIN, 30 * DAY]);
      expect((await service.hints(t0 + HINTS_MAX_AGE_MS + 1))?.deliveries).toEqual([2 * MIN, 5 * MIN, 30 * DAY]);
    } finally {
      await pool.query(`UPDATE tenants SET settings = '{}' WHERE id = 'tnt-q'`);
    }
    const closed = createPool({ url: db.url, max: 1 });
    await closed.end();
    const broken = new RetentionService(closed);
    expect(await broken.hints(t0)).toBeNull();
  });

  it("creates partitions ahead where each tenant's rows land, and keeps the outbox's partition from before partitioning while it holds a row", async () => {
    await pool.query(`INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload) VALUES ('tnt-p', 's', 'unsealed', '{}')`);
    await maintenance().run();
    expect(await exists('seal_outbox_legacy')).toBe(true);
    await pool.query(`DELETE FROM seal_outbox WHERE client_ref = 'unsealed'`);
    await maintenance().run();
    expect(await exists('seal_outbox_legacy')).toBe(false);
    for (const offset of [2 * MIN, 30 * DAY]) {
      expect(await exists(partitionName('webhook_deliveries', alignDown(clock + offset, MIN)))).toBe(true);
      expect(await exists(partitionName('webhook_attempts', alignDown(clock + offset, MIN)))).toBe(true);
    }
    expect(await exists(partitionName('events', alignDown(clock + 3 * MIN, MIN)))).toBe(true);
    expect(await exists(partitionName('seal_outbox', alignDown(clock, MIN)))).toBe(true);
  });

  it('keeps a past deliveries partition while a delivery is pending, and its attempts after it', async () => {
    const keep = clock + 2 * MIN;
    const deliveries = partitionName('webhook_deliveries', alignDown(keep, MIN));
    const attempts = partitionName('webhook_attempts', alignDown(keep, MIN));
    await pool.query(
      `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, keep_until) VALUES ('evt-00000000000000ff', 255, 'tnt-p', 't', 'e', 'x', '{}', $1)`,
      [new Date(clock + 3 * MIN)],
    );
    await pool.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, max_attempts, keep_until)
       VALUES ('dlv-p', 'tnt-p', 'whs-p', 'evt-00000000000000ff', 't', 8, $1)`,
      [new Date(keep)],
    );
    await pool.query(
      `INSERT INTO webhook_attempts (id, tenant_id, delivery_id, subscription_id, attempt, keep_until) VALUES ('wat-p', 'tnt-p', 'dlv-p', 'whs-p', 1, $1)`,
      [new Date(keep)],
    );
    clock += 4 * MIN;
    const { due } = await maintenance().run();
    expect(due.find((d) => d.partition === deliveries)).toMatchObject({ table: 'webhook_deliveries', archive: 'deliveries' });
    expect(due.find((d) => d.partition === attempts)).toMatchObject({ table: 'webhook_attempts', archive: null });
    expect(await maintenance().drop(deliveries)).toEqual({ dropped: false, reason: 'pending_rows' });
    expect(await maintenance().drop(attempts)).toEqual({ dropped: false, reason: 'waits_for_webhook_deliveries' });
    await pool.query(`UPDATE webhook_deliveries SET status = 'succeeded' WHERE id = 'dlv-p'`);
    // No longer pending, but not archived: the archive gate stays closed.
    expect(await maintenance().drop(deliveries)).toEqual({ dropped: false, reason: 'not_archived' });
    const events = partitionName('events', alignDown(clock - MIN, MIN));
    expect(await maintenance().drop(events)).toEqual({ dropped: false, reason: 'not_archived' });
    expect((await pool.query(`SELECT 1 FROM webhook_deliveries WHERE id = 'dlv-p'`)).rowCount).toBe(1);
  });

  it('drops an empty past outbox partition and keeps one with an unsealed row', async () => {
    const at = clock;
    const full = partitionName('seal_outbox', alignDown(at, MIN));
    const empty = partitionName('seal_outbox', alignDown(at, MIN) + MIN);
    await pool.query(
      `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload, created_at) VALUES ('tnt-p', 's', 'c', '{}', $1)`,
      [new Date(at)],
    );
    clock += 3 * MIN;
    await maintenance().run();
    expect(await maintenance().drop(full)).toEqual({ dropped: false, reason: 'not_empty' });
    expect(await maintenance().drop(empty)).toEqual({ dropped: true });
  });
});
