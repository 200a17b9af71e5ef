// The partitioning migrations on a populated database (docs/operations.md "Partitions", ADR 0034): the tables hold
// tens of thousands of rows, the previous version's reads and writes keep running while the migrations apply, and
// every row is readable afterwards, in the very table files it was in (nothing was rewritten).
import { rm } from 'node:fs/promises';
import { mintTenantId } from '@arbiter/auth';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase, migrationsWithout, whileRunning } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { ConsultationRepository } from '../src/repositories/consultations.repository';

jest.setTimeout(180_000);

const ROWS = 30_000;
/** Partitioning and every migration made after it: what the previous version did not have. */
const FROM_PARTITIONING = /^(20261231100[0-2]00_partitions|20261231(1[1-9]|2\d)\d{4}_|20(2[7-9]|[3-9]\d))/;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('verdict_partition_migration');
  // The previous version's schema: every migration before partitioning.
  const before = await migrationsWithout(verdictMigrationsDir(), FROM_PARTITIONING);
  await applyMigrations(db.url, before);
  await rm(before, { recursive: true });
  // A generous lock timeout: a statement the migration blocks for longer fails, and the test with it.
  pool = createPool({ url: db.url, max: 8, timeoutMs: 20_000 });
  await pool.query(
    `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record)
     SELECT 'cns-old-' || g, 'tnt-m' || (g % 3), 'agn-1', now() - g * interval '1 second', 'files.read', 'allowed',
            json_build_object('id', 'cns-old-' || g, 'tenant_id', 'tnt-m' || (g % 3))
       FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO shadow_disagreements (tenant_id, rule_id, rule_version_id, consultation_id, requested_at, would_be)
     SELECT 'tnt-m' || (g % 3), 'rul-s', 'rv-s', 'cns-old-' || g, now() - g * interval '1 second', 'blocked' FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO resolve_sessions (id, tenant_id, caller_principal_id, action, resource, scope, context)
     SELECT 'rs-old-' || g, 'tnt-m0', 'agn-1', 'a', 'r', '{}', '{}' FROM generate_series(1, $1) g`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload)
     SELECT 'tnt-m0', 'arbiter.tnt-m0.consultations', 'cns-old-' || g, '{}' FROM generate_series(1, $1) g`,
    [ROWS],
  );
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

const TABLES = ['consultations', 'shadow_disagreements', 'resolve_sessions', 'seal_outbox'];

async function fileNodes(): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ relname: string; relfilenode: string }>(
    `SELECT relname, relfilenode::text FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'`,
    [TABLES],
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.relfilenode]));
}

/** What the previous version does all day: writes a record with its outbox row, reads one, lists, resolves. */
async function previousVersionRound(i: number): Promise<void> {
  const id = `cns-during-${i}`;
  await pool.query(
    `WITH c AS (INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record)
                VALUES ($1, 'tnt-m0', 'agn-1', now(), 'files.read', 'allowed', json_build_object('id', $1::text)) RETURNING id, tenant_id)
     INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload) SELECT tenant_id, 'arbiter.tnt-m0.consultations', id, '{}' FROM c`,
    [id],
  );
  const one = await pool.query(`SELECT record FROM consultations WHERE tenant_id = 'tnt-m1' AND id = $1`, [
    `cns-old-${1 + ((i * 3) % ROWS)}`,
  ]);
  if (one.rowCount !== 1) throw new Error(`cns-old-${1 + ((i * 3) % ROWS)} not found`);
  await pool.query(`SELECT record FROM consultations WHERE tenant_id = 'tnt-m2' ORDER BY requested_at DESC, id DESC LIMIT 20`);
  await pool.query(
    `INSERT INTO resolve_sessions (id, tenant_id, caller_principal_id, action, resource, scope, context) VALUES ($1, 'tnt-m0', 'agn-1', 'a', 'r', '{}', '{}')`,
    [`rs-during-${i}`],
  );
  await pool.query(`UPDATE resolve_sessions SET rounds = rounds + 1, updated_at = now() WHERE id = $1`, [`rs-old-${1 + (i % ROWS)}`]);
  await pool.query(`DELETE FROM seal_outbox WHERE client_ref = $1`, [`cns-old-${1 + (i % ROWS)}`]);
}

describe('partitioning a populated verdict database', () => {
  it('keeps the previous version answering while it runs, and every row readable after, in place', async () => {
    const nodes = await fileNodes();
    const {
      result: applied,
      rounds,
      roundsDuring,
    } = await whileRunning(() => applyMigrations(db.url, verdictMigrationsDir()), previousVersionRound);
    expect(applied.applied.slice(0, 3)).toEqual([
      '20261231100000_partitions',
      '20261231100100_partitions_validate',
      '20261231100200_partitions_attach',
    ]);
    // The previous version's statements all succeeded (a failure fails the whole), some while the migrations ran.
    expect(roundsDuring).toBeGreaterThan(0);

    // Partitioned, with the old tables as partitions: the same files (nothing rewritten).
    const { rows: kinds } = await pool.query<{ relname: string; relkind: string }>(
      `SELECT relname, relkind::text FROM pg_class WHERE relname = ANY($1::text[])`,
      [TABLES],
    );
    expect(Object.fromEntries(kinds.map((k) => [k.relname, k.relkind]))).toEqual(Object.fromEntries(TABLES.map((t) => [t, 'p'])));
    const { rows: parts } = await pool.query<{ parent: string; relfilenode: string }>(
      `SELECT p.relname AS parent, c.relfilenode::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = ANY($1::text[])`,
      [TABLES],
    );
    for (const t of TABLES) expect(parts.filter((p) => p.parent === t).map((p) => p.relfilenode)).toContain(nodes[t]);

    // Every row is there, and the new version reads the old records.
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);
    expect(await count(`SELECT count(*)::text AS n FROM consultations WHERE id LIKE 'cns-old-%'`)).toBe(ROWS);
    expect(await count(`SELECT count(*)::text AS n FROM consultations WHERE id LIKE 'cns-during-%'`)).toBe(rounds);
    expect(await count(`SELECT count(*)::text AS n FROM shadow_disagreements`)).toBe(ROWS);
    expect(await count(`SELECT count(*)::text AS n FROM resolve_sessions`)).toBe(ROWS + rounds);
    expect(await count(`SELECT count(*)::text AS n FROM seal_outbox`)).toBe(ROWS + rounds - Math.min(rounds, ROWS));
    const repo = new ConsultationRepository(pool);
    expect(await repo.find(mintTenantId('tnt-m1'), 'cns-old-1')).toMatchObject({ id: 'cns-old-1' });
    expect(await repo.find(mintTenantId('tnt-m0'), 'cns-during-0')).toMatchObject({ id: 'cns-during-0' });
    // Rows from before partitioning leave together, at the migration's minute plus the default retention (90 days).
    const { rows: keep } = await pool.query<{ n: string }>(
      `SELECT count(DISTINCT keep_until)::text AS n FROM consultations WHERE id LIKE 'cns-old-%'`,
    );
    expect(keep[0].n).toBe('1');
    await repo.drain();
  });
});
