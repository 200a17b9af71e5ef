import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, eventually } from '@arbiter/testing';
import {
  applyMigrations,
  codeChecksum,
  EARLIER_CHECKSUMS_FILE,
  MigrationError,
  NO_TRANSACTION,
  pendingMigrations,
  readMigrations,
  sqlChecksum,
} from './migrations';

async function migrationsFolder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

async function query(url: string, sql: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe(applyMigrations.name, () => {
  it('applies pending migrations in order, records them like prisma migrate, and is idempotent', async () => {
    const db = await createTestDatabase('mig');
    const dir = await migrationsFolder({
      '20260101000000_a': 'CREATE TABLE a (id int PRIMARY KEY);',
      '20260102000000_b': 'ALTER TABLE a ADD COLUMN name text;',
    });
    try {
      expect(await applyMigrations(db.url, dir)).toEqual({ applied: ['20260101000000_a', '20260102000000_b'] });
      expect(await applyMigrations(db.url, dir)).toEqual({ applied: [] });
      const rows = await query(
        db.url,
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(['20260101000000_a', '20260102000000_b']);
      expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(rows.every((r) => r.finished_at && r.applied_steps_count === 1)).toBe(true);
      const c = new Client({ connectionString: db.url });
      await c.connect();
      expect(await pendingMigrations((sql) => c.query(sql), await readMigrations(dir))).toEqual([]);
      await c.end();
    } finally {
      await db.drop();
    }
  });

  it('is safe when several replicas start at once (advisory lock)', async () => {
    const db = await createTestDatabase('mig_race');
    const dir = await migrationsFolder({
      '20260101000000_a': 'CREATE TABLE a (id int PRIMARY KEY);',
      '20260102000000_b': 'CREATE TABLE b (id int PRIMARY KEY);',
    });
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => applyMigrations(db.url, dir)));
      expect(results.flatMap((r) => r.applied).sort()).toEqual(['20260101000000_a', '20260102000000_b']);
      const rows = await query(db.url, 'SELECT count(*)::int AS n FROM _prisma_migrations');
      expect(rows[0].n).toBe(2);
    } finally {
      await db.drop();
    }
  });

  it('rolls a failing migration back whole and reports it', async () => {
    const db = await createTestDatabase('mig_fail');
    const dir = await migrationsFolder({ '20260101000000_bad': 'CREATE TABLE ok (id int); SELECT * FROM missing_table;' });
    try {
      await expect(applyMigrations(db.url, dir)).rejects.toMatchObject({ code: 'migration_failed' });
      const rows = await query(db.url, `SELECT to_regclass('ok') AS t, (SELECT count(*)::int FROM _prisma_migrations) AS n`);
      expect(rows[0]).toEqual({ t: null, n: 0 });
    } finally {
      await db.drop();
    }
  });

  it('accepts an applied migration whose earlier text is listed in earlier-checksums, and nothing else', async () => {
    const db = await createTestDatabase('mig_amend');
    const original = '-- Widgets (see the old design notes).\nCREATE TABLE w (id int);';
    const dir = await migrationsFolder({ '20260101000000_w': original });
    try {
      await applyMigrations(db.url, dir);
      const file = path.join(dir, '20260101000000_w', 'migration.sql');
      await writeFile(file, '-- Widgets (docs/widgets.md).\nCREATE TABLE w (id int);');
      // Not listed yet: a changed text is refused.
      expect(await applyMigrations(db.url, dir).catch((e) => e)).toMatchObject({ code: 'checksum_mismatch' });

      await writeFile(
        path.join(dir, '20260101000000_w', EARLIER_CHECKSUMS_FILE),
        `# comments corrected\n${sqlChecksum(original)} ${codeChecksum(original)}\n`,
      );
      await expect(applyMigrations(db.url, dir)).resolves.toEqual({ applied: [] });

      // An edit to the code is refused even so: the earlier text no longer differs in comments alone.
      await writeFile(file, '-- Widgets (docs/widgets.md).\nCREATE TABLE w (id bigint);');
      expect(await applyMigrations(db.url, dir).catch((e) => e)).toMatchObject({ code: 'checksum_mismatch' });
    } finally {
      await db.drop();
    }
  });

  it('refuses to start when an applied migration was edited', async () => {
    const db = await createTestDatabase('mig_edit');
    const dir = await migrationsFolder({ '20260101000000_a': 'CREATE TABLE a (id int);' });
    try {
      await applyMigrations(db.url, dir);
      await writeFile(path.join(dir, '20260101000000_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
      const err = await applyMigrations(db.url, dir).catch((e) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect(err.code).toBe('checksum_mismatch');
    } finally {
      await db.drop();
    }
  });

  it('runs a no-transaction migration statement by statement (CREATE INDEX CONCURRENTLY), and again from the top after a failure', async () => {
    const db = await createTestDatabase('mig_notx');
    const ok = {
      '20260101000000_a': 'CREATE TABLE a (id int, v int);\nINSERT INTO a VALUES (1, 1), (2, 2);',
      '20260102000000_b': `${NO_TRANSACTION}\nDROP INDEX CONCURRENTLY IF EXISTS a_v;\nCREATE UNIQUE INDEX CONCURRENTLY a_v ON a (v);`,
    };
    const failing = await migrationsFolder({
      ...ok,
      '20260102000000_b': `${NO_TRANSACTION}\nDROP INDEX CONCURRENTLY IF EXISTS a_v;\nCREATE UNIQUE INDEX CONCURRENTLY a_v ON a (v);\nSELECT 1/0;`,
    });
    try {
      await expect(applyMigrations(db.url, failing)).rejects.toMatchObject({ code: 'migration_failed' });
      expect((await query(db.url, `SELECT migration_name FROM _prisma_migrations`)).map((r) => r.migration_name)).toEqual([
        '20260101000000_a',
      ]);
      // The fixed text runs from its first statement again (the index the failed run built is rebuilt).
      expect(await applyMigrations(db.url, await migrationsFolder(ok))).toEqual({ applied: ['20260102000000_b'] });
      expect(await query(db.url, `SELECT indisvalid FROM pg_index WHERE indexrelid = 'a_v'::regclass`)).toEqual([{ indisvalid: true }]);
    } finally {
      await db.drop();
    }
  });

  it('tries a transactional migration again when it could not take its locks in time', async () => {
    const db = await createTestDatabase('mig_locks');
    await applyMigrations(db.url, await migrationsFolder({ '20260101000000_a': 'CREATE TABLE a (id int);' }));
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE a IN ACCESS SHARE MODE');
      const dir = await migrationsFolder({
        '20260101000000_a': 'CREATE TABLE a (id int);',
        '20260102000000_b': `SET LOCAL lock_timeout = '300ms';\nALTER TABLE a ADD COLUMN v int;`,
      });
      const applying = applyMigrations(db.url, dir);
      // The first try gives up on the lock the holder keeps (300 ms); a later one finds it free.
      await eventually(
        'the migration waiting for its lock',
        async () =>
          (await query(db.url, `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%ADD COLUMN v int%' AND wait_event_type = 'Lock'`))
            .length > 0,
      );
      await holder.query('COMMIT');
      expect(await applying).toEqual({ applied: ['20260102000000_b'] });
    } finally {
      await holder.end();
      await db.drop();
    }
  });
});
