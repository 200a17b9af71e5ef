// Partition maintenance of the verdict gateway against a real PostgreSQL (docs/operations.md "Partitions"), with
// one-minute partitions and a clock the test moves.
import { alignDown, applyMigrations, createPool, PartitionMaintenance, partitionName, type ArchiveGate } from '@arbiter/db';
import { partitionMetrics, ServiceMetrics } from '@arbiter/http';
import { createTestDatabase, eventually } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { verdictTables } from '../src/partitions';

jest.setTimeout(60_000);

const MIN = 60_000;
const DAY = 86_400_000;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('verdict_partitions');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 6 });
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

async function partitions(table: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
    [table],
  );
  return rows.map((r) => r.name);
}

// Two days on: past the bounds the migration gave the partitions of the seal outbox and resolve sessions made of
// the tables from before partitioning.
let clock = alignDown(Date.now() + 2 * DAY, MIN) + 30_000;
const events = { created: [] as string[], dropped: [] as string[], moved: [] as Array<[string, number]> };
let covered = false;
const gate: ArchiveGate = { covered: async () => covered };
const maintenance = (retentions: number[] = [2 * MIN]) =>
  new PartitionMaintenance({
    pool,
    tables: verdictTables({ RESOLVE_SESSION_TTL_S: 60 }),
    intervalMs: MIN,
    offsets: async (t) => (t.key === 'keep_until' ? retentions : []),
    archiveGate: gate,
    now: () => clock,
    hooks: {
      created: (_t, p) => events.created.push(p),
      dropped: (_t, p) => events.dropped.push(p),
      moved: (_t, p, n) => events.moved.push([p, n]),
    },
  });

describe('verdict partition maintenance (PARTITION_INTERVAL=1m)', () => {
  const slot = (offset: number) => alignDown(clock + offset, MIN);

  it('creates the partitions ahead for every table, idempotently, two runs at once included', async () => {
    const [a, b] = await Promise.all([maintenance().run(), maintenance().run()]);
    expect(a.due).toEqual(b.due);
    for (const offset of [-MIN, 0, MIN, 2 * MIN]) {
      expect(await partitions('seal_outbox')).toContain(partitionName('seal_outbox', slot(offset)));
      expect(await partitions('resolve_sessions')).toContain(partitionName('resolve_sessions', slot(offset + MIN)));
    }
    // keep_until tables: around now + each retention in use (2m here) and the default (90d).
    for (const offset of [MIN, 2 * MIN, 3 * MIN, 4 * MIN, 90 * DAY]) {
      expect(await partitions('consultations')).toContain(partitionName('consultations', slot(offset)));
      expect(await partitions('shadow_disagreements')).toContain(partitionName('shadow_disagreements', slot(offset)));
    }
    const before = events.created.length;
    await maintenance().run();
    expect(events.created.length).toBe(before);
    // The DEFAULT partitions stay; the partition made of the outbox from before partitioning went once empty.
    expect(await partitions('consultations')).toContain('consultations_default');
    expect(await partitions('seal_outbox')).not.toContain('seal_outbox_legacy');
    expect(await partitions('resolve_sessions')).not.toContain('resolve_sessions_legacy');
  });

  it('drops a past partition of a transient table, and lists none of the current ones as due', async () => {
    const past = partitionName('resolve_sessions', slot(0));
    await pool.query(
      `INSERT INTO resolve_sessions (id, tenant_id, caller_principal_id, action, resource, scope, context, expires_at)
       VALUES ('rs-gone', 'tnt-p', 'agn-1', 'a', 'r', '{}', '{}', $1)`,
      [new Date(slot(0) + 1000)],
    );
    expect((await maintenance().drop(past)).dropped).toBe(false); // not due yet
    clock += 3 * MIN;
    const { due } = await maintenance().run();
    expect(due.map((d) => d.partition)).toContain(past);
    expect(due.every((d) => Date.parse(d.to) <= clock)).toBe(true);
    // Two drops at once (two workers' maintenance runs), both past their first look-up and waiting for the table's
    // maintenance lock, held here meanwhile: one drops it, the other finds it gone.
    const holder = await pool.connect();
    let answers: unknown[];
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext('arbiter.partitions.' || $1))`, ['resolve_sessions']);
      const both = Promise.all([maintenance().drop(past), maintenance().drop(past)]);
      await eventually(
        'both drops waiting for the lock',
        async () => (await pool.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rowCount === 2,
      );
      await holder.query('COMMIT');
      answers = await both;
    } finally {
      holder.release();
    }
    expect(answers).toEqual(expect.arrayContaining([{ dropped: true }, { dropped: false, reason: 'unknown_partition' }]));
    expect(await partitions('resolve_sessions')).not.toContain(past);
    expect((await pool.query(`SELECT 1 FROM resolve_sessions WHERE id = 'rs-gone'`)).rowCount).toBe(0);
    expect(events.dropped.filter((p) => p === past)).toEqual([past]);
    // Nothing retired is left behind by either.
    expect((await pool.query(`SELECT 1 FROM pg_class WHERE relname LIKE 'resolve_sessions_retired_%'`)).rowCount).toBe(0);
  });

  it('keeps a past outbox partition while it holds an unsealed row, and drops it once empty', async () => {
    const at = clock;
    const name = partitionName('seal_outbox', alignDown(at, MIN));
    await pool.query(
      `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload, created_at) VALUES ('tnt-p', 's', 'c', '{}', $1)`,
      [new Date(at)],
    );
    clock += 2 * MIN;
    await maintenance().run();
    expect(await maintenance().drop(name)).toEqual({ dropped: false, reason: 'not_empty' });
    expect(await partitions('seal_outbox')).toContain(name);
    await pool.query(`DELETE FROM seal_outbox WHERE client_ref = 'c'`);
    expect(await maintenance().drop(name)).toEqual({ dropped: true });
  });

  it('keeps a past consultations partition while the archive gate is closed, and its shadow rows after it', async () => {
    const keep = clock + 2 * MIN;
    const name = partitionName('consultations', alignDown(keep, MIN));
    const shadow = partitionName('shadow_disagreements', alignDown(keep, MIN));
    await pool.query(
      `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
       VALUES ('cns-kept', 'tnt-p', 'agn-1', $1, 'a', 'allowed', '{}', $2)`,
      [new Date(clock), new Date(keep)],
    );
    await pool.query(
      `INSERT INTO shadow_disagreements (tenant_id, rule_id, rule_version_id, consultation_id, requested_at, would_be, keep_until)
       VALUES ('tnt-p', 'rul-1', 'rv-1', 'cns-kept', $1, 'blocked', $2)`,
      [new Date(clock), new Date(keep)],
    );
    clock += 4 * MIN;
    const { due } = await maintenance().run();
    expect(due.find((d) => d.partition === name)).toMatchObject({ table: 'consultations', archive: 'consultations' });
    expect(due.find((d) => d.partition === shadow)).toMatchObject({ table: 'shadow_disagreements', archive: null });
    expect(await maintenance().drop(name)).toEqual({ dropped: false, reason: 'not_archived' });
    expect(await maintenance().drop(shadow)).toEqual({ dropped: false, reason: 'waits_for_consultations' });
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-kept'`)).rowCount).toBe(1);
    covered = true;
    try {
      expect(await maintenance().drop(name)).toEqual({ dropped: true });
      expect(await maintenance().drop(shadow)).toEqual({ dropped: true });
    } finally {
      covered = false;
    }
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-kept'`)).rowCount).toBe(0);
  });

  it('moves rows the DEFAULT partition caught into the partition created for them', async () => {
    const keep = clock + 7 * DAY;
    await pool.query(
      `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
       VALUES ('cns-stray', 'tnt-p', 'agn-1', $1, 'a', 'allowed', '{}', $2)`,
      [new Date(clock), new Date(keep)],
    );
    expect((await pool.query(`SELECT 1 FROM consultations_default WHERE id = 'cns-stray'`)).rowCount).toBe(1);
    await maintenance([7 * DAY]).run();
    const name = partitionName('consultations', alignDown(keep, MIN));
    expect(events.moved).toContainEqual([name, 1]);
    expect((await pool.query(`SELECT 1 FROM consultations_default`)).rowCount).toBe(0);
    expect((await pool.query(`SELECT 1 FROM ${name} WHERE id = 'cns-stray'`)).rowCount).toBe(1);
  });

  it('moves a DEFAULT partition row whose time has passed into a partition of its own, which is then due', async () => {
    const keep = clock - 10 * DAY;
    await pool.query(
      `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
       VALUES ('cns-late', 'tnt-p', 'agn-1', $1, 'a', 'allowed', '{}', $2)`,
      [new Date(keep - MIN), new Date(keep)],
    );
    const { due } = await maintenance().run();
    const name = partitionName('consultations', alignDown(keep, MIN));
    expect(events.moved).toContainEqual([name, 1]);
    expect(due.map((d) => d.partition)).toContain(name);
    expect((await pool.query(`SELECT 1 FROM consultations_default`)).rowCount).toBe(0);
  });

  it('lets rows of a retention in use for seconds only leave the DEFAULT partition and then the database', async () => {
    // Retentions of 10m; a tenant switches to 1m for 3 s (two checks) and back, so no run ever sees 1m in use: the
    // two rows land in the DEFAULT partition, where nothing would ever drop them.
    clock = alignDown(clock + DAY, MIN) + 5_000;
    await maintenance([10 * MIN]).run();
    const keeps = [clock + MIN, clock + 3_000 + MIN];
    for (const [i, keep] of keeps.entries())
      await pool.query(
        `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
         VALUES ($1, 'tnt-p', 'agn-1', $2, 'a', 'allowed', '{}', $3)`,
        [`cns-brief-${i}`, new Date(keep - MIN), new Date(keep)],
      );
    expect((await pool.query(`SELECT 1 FROM consultations_default WHERE id LIKE 'cns-brief-%'`)).rowCount).toBe(2);
    const names = [...new Set(keeps.map((k) => partitionName('consultations', alignDown(k, MIN))))];
    const due = new Set<string>();
    // Twelve runs ten seconds apart, the retention back at 10m.
    for (let run = 0; run < 12; run++) {
      clock += 10_000;
      for (const d of (await maintenance([10 * MIN]).run()).due) due.add(d.partition);
    }
    expect((await pool.query(`SELECT 1 FROM consultations_default`)).rowCount).toBe(0);
    for (const name of names) expect(due).toContain(name);
    covered = true;
    try {
      for (const name of names) expect(await maintenance([10 * MIN]).drop(name)).toEqual({ dropped: true });
    } finally {
      covered = false;
    }
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id LIKE 'cns-brief-%'`)).rowCount).toBe(0);
  });

  it('refuses names that are not its partitions, and never drops the DEFAULT partition', async () => {
    expect(await maintenance().drop('consultations_default')).toEqual({ dropped: false, reason: 'unknown_partition' });
    expect(await maintenance().drop('approvals_p20200101t0000')).toEqual({ dropped: false, reason: 'unknown_partition' });
    expect(await maintenance().drop('consultations_p20200101t0000')).toEqual({ dropped: false, reason: 'unknown_partition' });
    // The DEFAULT partition and the tables themselves are never dropped.
    expect(await partitions('consultations')).toContain('consultations_default');
  });
});

describe('the drop in two steps: detached and retired, then dropped (docs/operations.md "Partitions")', () => {
  const exists = async (name: string) => (await pool.query(`SELECT to_regclass($1) AS t`, [name])).rows[0].t !== null;
  const retiredNow = async () =>
    (await pool.query<{ n: string }>(`SELECT relname AS n FROM pg_class WHERE relname LIKE '%\\_retired\\_%' ORDER BY 1`)).rows.map(
      (r) => r.n,
    );

  /** A past consultations partition holding one row, and the run that lists it as due. */
  async function pastConsultations(id: string): Promise<string> {
    const keep = clock + 2 * MIN;
    const name = partitionName('consultations', alignDown(keep, MIN));
    await maintenance().run();
    await pool.query(
      `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
       VALUES ($1, 'tnt-p', 'agn-1', $2, 'a', 'allowed', '{}', $3)`,
      [id, new Date(clock), new Date(keep)],
    );
    clock += 4 * MIN;
    expect((await maintenance().run()).due.map((d) => d.partition)).toContain(name);
    return name;
  }

  /** A pool whose DROP TABLE statements fail, as if the process died right after the first step committed. */
  function diesBeforeTheDrop(): Pool {
    const connect = async () => {
      const client = await pool.connect();
      return new Proxy(client, {
        get(target, key) {
          if (key === 'query')
            return (text: unknown, ...rest: unknown[]) =>
              typeof text === 'string' && text.startsWith('DROP TABLE')
                ? Promise.reject(new Error('the process died'))
                : (target.query as (...a: unknown[]) => unknown)(text, ...rest);
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    };
    return new Proxy(pool, { get: (target, key) => (key === 'connect' ? connect : Reflect.get(target, key)) });
  }

  it('keeps the partition attached and its rows in place while the gate is closed: nothing is detached', async () => {
    const name = await pastConsultations('cns-closed');
    expect(await maintenance().drop(name)).toEqual({ dropped: false, reason: 'not_archived' });
    expect(await partitions('consultations')).toContain(name);
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-closed'`)).rowCount).toBe(1);
    expect(await retiredNow()).toEqual([]);
  });

  it('detaches and retires the partition in one transaction, then drops the retired table in a second', async () => {
    const name = await pastConsultations('cns-two-steps');
    const steps: Array<{ detach: number; drop: number | null }> = [];
    covered = true;
    try {
      const m = new PartitionMaintenance({
        pool,
        tables: verdictTables({ RESOLVE_SESSION_TTL_S: 60 }),
        intervalMs: MIN,
        archiveGate: gate,
        now: () => clock,
        hooks: { dropSteps: (_t, _p, ms) => steps.push(ms) },
      });
      expect(await m.drop(name)).toEqual({ dropped: true });
    } finally {
      covered = false;
    }
    expect(steps).toEqual([{ detach: expect.any(Number), drop: expect.any(Number) }]);
    expect(await partitions('consultations')).not.toContain(name);
    expect(await exists(name)).toBe(false);
    expect(await retiredNow()).toEqual([]);
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-two-steps'`)).rowCount).toBe(0);
  });

  /** A past consultations partition holding one row, retired by a drop that died before its second step. */
  async function retiredByCrash(id: string): Promise<{ name: string; retired: string }> {
    const name = await pastConsultations(id);
    covered = true;
    try {
      const dying = new PartitionMaintenance({
        pool: diesBeforeTheDrop(),
        tables: verdictTables({ RESOLVE_SESSION_TTL_S: 60 }),
        intervalMs: MIN,
        archiveGate: gate,
        now: () => clock,
      });
      await expect(dying.drop(name)).rejects.toThrow('the process died');
    } finally {
      covered = false;
    }
    return { name, retired: name.replace('consultations_', 'consultations_retired_') };
  }

  it('drops at the next run the retired table a drop interrupted after its first step left behind', async () => {
    const { name, retired } = await retiredByCrash('cns-crash');
    // The first step committed: the partition left the table whole, its rows with it, into the retired table.
    expect(await partitions('consultations')).not.toContain(name);
    expect(await retiredNow()).toEqual([retired]);
    expect((await pool.query(`SELECT id FROM ${retired}`)).rows).toEqual([{ id: 'cns-crash' }]);
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-crash'`)).rowCount).toBe(0);
    await maintenance().run();
    expect(await exists(retired)).toBe(false);
    expect(await retiredNow()).toEqual([]);
  });

  it('leaves a retired table a session holds a lock on to the next run, counted each time in arbiter_partition_drops_deferred_total', async () => {
    const { retired } = await retiredByCrash('cns-read');
    expect(await retiredNow()).toEqual([retired]);
    const metrics = new ServiceMetrics('verdict', { defaultMetrics: false });
    const warn = jest.fn();
    const withMetrics = () =>
      new PartitionMaintenance({
        pool,
        tables: verdictTables({ RESOLVE_SESSION_TTL_S: 60 }),
        intervalMs: MIN,
        archiveGate: gate,
        now: () => clock,
        lockTimeoutMs: 200,
        hooks: partitionMetrics(metrics, { warn } as never),
      });
    const deferred = async () =>
      /arbiter_partition_drops_deferred_total\{[^}]*table="consultations"[^}]*\} (\d+)/.exec(await metrics.render())?.[1];
    // An operator reading the retired table: its drop waits for the lock, gives up, and is left to the next run.
    const reader = await pool.connect();
    try {
      await reader.query('BEGIN');
      await reader.query(`SELECT count(*) FROM ${retired}`);
      await withMetrics().run();
      await withMetrics().run();
      expect(await exists(retired)).toBe(true);
      expect(await deferred()).toBe('2');
      expect(warn).toHaveBeenCalledWith({ table: 'consultations', retired }, expect.stringContaining('not dropped'));
    } finally {
      await reader.query('ROLLBACK');
      reader.release();
    }
    await withMetrics().run();
    expect(await exists(retired)).toBe(false);
    expect(await deferred()).toBe('2');
  });

  it('never drops an attached partition, a detached one it did not retire, or a table named alike that is not its own', async () => {
    const marker = (partition: string) => `arbiter: retired partition ${partition} of consultations, dropped by partition maintenance`;
    // Named and marked as retired, but attached: a partition, whatever its name says.
    await pool.query(
      `CREATE TABLE consultations_retired_p20100101t0000 PARTITION OF consultations FOR VALUES FROM ('2010-01-01 00:00+00') TO ('2010-01-01 00:01+00')`,
    );
    await pool.query(`COMMENT ON TABLE consultations_retired_p20100101t0000 IS '${marker('consultations_p20100101t0000')}'`);
    const foreign = [
      'consultations_retired_p20200101t0000', // the name, without the marker
      'consultations_retired_p20200101t0001', // the name, the marker of another partition
      'consultations_retired_backup', // a name that is no partition's
      'consultations_p20200101t0002', // a partition an operator detached: not retired by a drop
      'shadow_disagreements_retired_p20200101t0003', // another table's name, with consultations' marker
    ];
    for (const name of foreign) await pool.query(`CREATE TABLE ${name} (LIKE consultations)`);
    await pool.query(`COMMENT ON TABLE consultations_retired_p20200101t0001 IS '${marker('consultations_p20200101t0000')}'`);
    await pool.query(`COMMENT ON TABLE consultations_retired_backup IS '${marker('consultations_backup')}'`);
    await pool.query(`COMMENT ON TABLE shadow_disagreements_retired_p20200101t0003 IS '${marker('consultations_p20200101t0003')}'`);
    await maintenance().run();
    await maintenance().run();
    expect(await partitions('consultations')).toContain('consultations_retired_p20100101t0000');
    for (const name of foreign) expect(await exists(name)).toBe(true);
    for (const name of [...foreign, 'consultations_retired_p20100101t0000']) await pool.query(`DROP TABLE ${name}`);
  });

  it('leaves the partition attached when a table not its own already holds its retired name', async () => {
    const name = await pastConsultations('cns-taken');
    const retired = name.replace('consultations_', 'consultations_retired_');
    await pool.query(`CREATE TABLE ${retired} (x int)`);
    covered = true;
    try {
      expect(await maintenance().drop(name)).toEqual({ dropped: false, reason: 'retired_name_taken' });
    } finally {
      covered = false;
    }
    expect(await partitions('consultations')).toContain(name);
    expect((await pool.query(`SELECT 1 FROM consultations WHERE id = 'cns-taken'`)).rowCount).toBe(1);
    await pool.query(`DROP TABLE ${retired}`);
  });
});
