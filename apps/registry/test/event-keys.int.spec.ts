// An event's idempotency key in a table of its own (docs/operations.md "Partitions", "An event by its idempotency key"):
// the verdict gateway's events are recorded once per key, the key's row names the event where it lies, a key whose
// event left is recorded anew, and a key row leaves with its event's retention.
import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import request from 'supertest';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase, migrationsWithout } from '@arbiter/testing';
import { registryMigrationsDir } from '../src/context';
import { SpentRowsRepository } from '../src/repositories/spent-rows.repository';
import { createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness, type TenantFixture } from './harness';
import { sql } from './fixtures';

jest.setTimeout(60_000);

const approvalEvent = (key: string, over: object = {}) => ({
  source: 'verdict',
  type: 'approval.requested',
  entity_type: 'approval',
  entity_id: 'apr-0123456789abcdef01234567',
  scope_ids: [],
  actor_id: 'agn-0123456789abcdef01234567',
  data: { id: 'apr-0123456789abcdef01234567', status: 'pending', candidate_deciders: ['role-finance'] },
  idempotency_key: key,
  ...over,
});

describe('an event by its idempotency key', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let other: TenantFixture;
  const record = (tenantId: string, body: object) =>
    request(h.url).post(`/internal/v1/tenants/${tenantId}/events`).set('X-Internal-Token', TEST_INTERNAL_TOKEN).send(body);
  const keyRow = async (tenantId: string, key: string) =>
    (
      await sql<{ event_id: string; keep_until: Date }>(
        h,
        `SELECT event_id, keep_until FROM event_keys WHERE tenant_id = $1 AND idempotency_key = $2`,
        [tenantId, key],
      )
    )[0];

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'keys');
    other = await createTenantWithAdmin(h, 'keys-other');
  });
  afterAll(() => h.stop());

  it("remembers a key in its own row, naming the event and its keep_until; a replay answers that event; another tenant's key is its own", async () => {
    const created = await record(t.tenant.id, approvalEvent('k-1')).expect(201);
    const [event] = await sql<{ keep_until: Date }>(h, `SELECT keep_until FROM events WHERE id = $1`, [created.body.id]);
    expect(await keyRow(t.tenant.id, 'k-1')).toEqual({ event_id: created.body.id, keep_until: event.keep_until });
    const replay = await record(t.tenant.id, approvalEvent('k-1', { data: { changed: true } })).expect(200);
    expect(replay.body).toEqual(created.body);
    const theirs = await record(other.tenant.id, approvalEvent('k-1')).expect(201);
    expect(theirs.body.id).not.toBe(created.body.id);
    expect((await sql(h, `SELECT 1 FROM events WHERE idempotency_key = 'k-1'`)).length).toBe(2);
  });

  it('records concurrent calls with one key once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => record(t.tenant.id, approvalEvent('k-race'))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await sql(h, `SELECT 1 FROM events WHERE idempotency_key = 'k-race'`)).length).toBe(1);
  });

  it('records a key anew once its event has left (its partition dropped), and the key row then names the new event', async () => {
    const first = (await record(t.tenant.id, approvalEvent('k-left')).expect(201)).body;
    await sql(h, `DELETE FROM events WHERE id = $1`, [first.id]);
    const again = (await record(t.tenant.id, approvalEvent('k-left')).expect(201)).body;
    expect(again.id).not.toBe(first.id);
    expect((await keyRow(t.tenant.id, 'k-left')).event_id).toBe(again.id);
  });

  it('keeps the table whole and a live key unique for any writer of events (a replica of an older release)', async () => {
    const live = (await record(t.tenant.id, approvalEvent('k-direct')).expect(201)).body;
    const insert = (key: string) =>
      sql(
        h,
        `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, idempotency_key, source)
         SELECT 'evt-' || lpad(to_hex(s), 16, '0'), s, $1, 'approval.requested', 'approval', 'apr-x', '{}', $2, 'verdict'
           FROM nextval('events_seq_seq') AS s`,
        [t.tenant.id, key],
      );
    await expect(insert('k-direct')).rejects.toMatchObject({ code: '23505' });
    expect((await keyRow(t.tenant.id, 'k-direct')).event_id).toBe(live.id);
    await insert('k-older-writer');
    const [written] = await sql<{ id: string }>(h, `SELECT id FROM events WHERE idempotency_key = 'k-older-writer'`);
    expect((await keyRow(t.tenant.id, 'k-older-writer')).event_id).toBe(written.id);
    expect((await record(t.tenant.id, approvalEvent('k-older-writer')).expect(200)).body.id).toBe(written.id);
  });

  it('keeps the key of an event partition maintenance moves (deleted and inserted again, same row, one transaction)', async () => {
    // What PartitionMaintenance.create does with the rows the DEFAULT partition caught: a retention changed since put
    // a keyed event there, and the move failed every maintenance run of every tenant until the event's keep_until.
    const moved = (await record(t.tenant.id, approvalEvent('k-moved')).expect(201)).body;
    const before = await keyRow(t.tenant.id, 'k-moved');
    const c = new Client({ connectionString: h.databaseUrl });
    await c.connect();
    try {
      await c.query('BEGIN');
      await c.query(`CREATE TEMP TABLE strays ON COMMIT DROP AS SELECT * FROM events WHERE id = $1`, [moved.id]);
      await c.query(`DELETE FROM events WHERE id = $1`, [moved.id]);
      await c.query(`INSERT INTO events SELECT * FROM strays`);
      await c.query('COMMIT');
    } finally {
      await c.end();
    }
    expect(await keyRow(t.tenant.id, 'k-moved')).toEqual(before);
    // Still one event under the key, and still unique.
    expect((await record(t.tenant.id, approvalEvent('k-moved')).expect(200)).body.id).toBe(moved.id);
  });

  it("deletes a key row past its event's keep_until, and no other", async () => {
    await record(t.tenant.id, approvalEvent('k-old')).expect(201);
    await record(t.tenant.id, approvalEvent('k-kept')).expect(201);
    await sql(h, `UPDATE event_keys SET keep_until = now() - interval '1 second' WHERE idempotency_key = 'k-old'`);
    const pruned = await new SpentRowsRepository(h.registry.ctx.pool).pruneAnyTenant(1000);
    expect(pruned.event_keys).toBe(1);
    expect(await keyRow(t.tenant.id, 'k-old')).toBeUndefined();
    expect(await keyRow(t.tenant.id, 'k-kept')).toBeDefined();
  });
});

describe('migration 20270106110000_event_keys on stored events', () => {
  it('gives each stored keyed event its key row, and none to an event without a key', async () => {
    const db = await createTestDatabase('registry_event_keys_migration');
    const pool = createPool({ url: db.url, max: 2 });
    try {
      // Without it and the later one that replaces its trigger's function (20270109100000_event_keys_move).
      const before = await migrationsWithout(registryMigrationsDir(), /^(20270106110000|20270109100000)_/);
      await applyMigrations(db.url, before);
      await rm(before, { recursive: true });
      await pool.query(`INSERT INTO tenants (id, slug, name) VALUES ('tnt-m', 'm', 'm')`);
      await pool.query(
        `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, idempotency_key, created_at, keep_until)
         VALUES ('evt-0000000000000001', 1, 'tnt-m', 'approval.requested', 'approval', 'apr-1', '{}', 'k-1', '2026-11-01T00:00:00Z', '2027-01-30T00:00:00Z'),
                ('evt-0000000000000002', 2, 'tnt-m', 'rule.created', 'rule', 'rul-1', '{}', NULL, '2026-11-01T00:00:00Z', '2027-01-30T00:00:00Z')`,
      );
      await applyMigrations(db.url, registryMigrationsDir());
      const { rows } = await pool.query(`SELECT tenant_id, idempotency_key, event_id, keep_until FROM event_keys`);
      expect(rows).toEqual([
        { tenant_id: 'tnt-m', idempotency_key: 'k-1', event_id: 'evt-0000000000000001', keep_until: new Date('2027-01-30T00:00:00Z') },
      ]);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
