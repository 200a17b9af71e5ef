// How consultation records are stored (ADR 0037): lz4 in the row where the server has lz4, uncompressed in the row
// where it has not; either way a record reads back as the exact text that was hashed and signed. Against both kinds of
// server: the tests' cluster (the embedded build, without lz4) and Debian's PostgreSQL 15 (with lz4, as the Compose
// file's image and most packaged builds), started for this file.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, createPool, PartitionMaintenance } from '@arbiter/db';
import { ensureDatabases, startPostgres, type PostgresHandle } from '@arbiter/devstack';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { recordsCompressed, verdictTables } from '../src/partitions';

jest.setTimeout(120_000);

/** Debian's PostgreSQL (package postgresql-15, on the CI image): built with lz4. */
const DEBIAN_POSTGRES = '/usr/lib/postgresql/15';
const hasDebianPostgres = fs.existsSync(path.join(DEBIAN_POSTGRES, 'bin', 'postgres'));
// Without it the lz4 half is skipped on a developer's machine, never in CI (CI=true): there it fails.
const withDebianPostgres = hasDebianPostgres || process.env.CI === 'true' ? describe : describe.skip;
if (!hasDebianPostgres && process.env.CI !== 'true') {
  process.stderr.write(`record-storage.int.spec.ts: no ${DEBIAN_POSTGRES}; the lz4 half is skipped (apt-get install postgresql-15).\n`);
}

/** A database with the verdict migrations applied, on the tests' cluster or on a server of its own. */
interface Server {
  url: string;
  stop(): Promise<void>;
}

async function testCluster(): Promise<Server> {
  const db = await createTestDatabase('verdict_record_storage');
  return { url: db.url, stop: () => db.drop() };
}

async function debianServer(): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-record-storage-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  let pg: PostgresHandle | undefined;
  try {
    pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: false, nativeDir: { dir: DEBIAN_POSTGRES, version: '15-debian' } });
    await ensureDatabases(pg.url, ['verdict']);
  } catch (err) {
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = new URL(pg.url);
  url.pathname = '/verdict';
  return {
    url: url.toString(),
    async stop() {
      await pg!.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ["the tests' cluster", describe, testCluster],
  ["Debian's PostgreSQL 15", withDebianPostgres, debianServer],
] as const)('consultation record storage on %s', (_name, suite, start) =>
  suite('', () => {
    let server: Server;
    let pool: Pool;
    let lz4 = false;

    beforeAll(async () => {
      server = await start();
      await applyMigrations(server.url, verdictMigrationsDir());
      pool = createPool({ url: server.url, max: 2 });
      const { rows } = await pool.query<{ lz4: boolean }>(
        `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
      );
      lz4 = rows[0].lz4;
    });
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
    });

    it("knows whether the server has lz4: the embedded build has not, Debian's has", () => {
      expect(lz4).toBe(start === debianServer);
    });

    recordStorageTests(() => ({ pool, lz4 }));
  }),
);

/** Storage, compression and reloptions of the record column in every consultations partition. */
async function partitionStorage(
  pool: Pool,
): Promise<Array<{ name: string; storage: string; compression: string; options: string[] | null }>> {
  const { rows } = await pool.query(
    `SELECT c.relname AS name, a.attstorage AS storage, a.attcompression AS compression, c.reloptions AS options
       FROM pg_partition_tree('consultations') t JOIN pg_class c ON c.oid = t.relid
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'record'
      WHERE t.isleaf ORDER BY 1`,
  );
  return rows;
}

function recordStorageTests(context: () => { pool: Pool; lz4: boolean }): void {
  it('compresses records with lz4 only where the server has it, in the partitions made after the migration too', async () => {
    const { pool, lz4 } = context();
    const compressed = await recordsCompressed(pool);
    expect(compressed).toBe(lz4);
    await new PartitionMaintenance({
      pool,
      tables: verdictTables({ RESOLVE_SESSION_TTL_S: 60 }, compressed),
      intervalMs: 86_400_000,
      offsets: async () => [],
    }).run();
    // Where lz4 is used, every variable-length column is MAIN and lz4 (ADR 0037: else the ids go out of line first).
    const { rows: columns } = await pool.query(
      `SELECT DISTINCT a.attstorage::text || a.attcompression::text AS how FROM pg_partition_tree('consultations') t
         JOIN pg_attribute a ON a.attrelid = t.relid AND a.attnum > 0 AND NOT a.attisdropped AND a.attlen = -1 AND a.attname <> 'record'`,
    );
    expect(columns.map((c) => c.how)).toEqual([lz4 ? 'ml' : 'x']);
    const parts = await partitionStorage(pool);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts)
      expect(p).toEqual({
        name: p.name,
        ...(lz4
          ? { storage: 'm', compression: 'l', options: ['toast_tuple_target=2032'] }
          : { storage: 'e', compression: '', options: ['toast_tuple_target=8160'] }),
      });
  });

  it('reads a record back as the exact text stored, whitespace and member order included', async () => {
    const { pool, lz4 } = context();
    const members = Array.from({ length: 60 }, (_, i) => `"rule_${i}" : {"z":1,  "a":"${'ab'.repeat(i)}"}`);
    const text = `{ "id":"cns-0123456789abcdef01234567", ${members.join(' ,')} }`;
    expect(text.length).toBeGreaterThan(2032);
    await pool.query(
      `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record)
       VALUES ('cns-0123456789abcdef01234567', 'ten-storage', 'agn-0123456789abcdef01234567', now(), 'read', 'allowed', $1::json)`,
      [text],
    );
    const { rows } = await pool.query(
      `SELECT record::text AS text, pg_column_compression(record) AS method, pg_column_size(record) AS stored
         FROM consultations WHERE tenant_id = 'ten-storage' AND id = 'cns-0123456789abcdef01234567'`,
    );
    expect(rows[0].text).toBe(text);
    // SHA-256 of the stored bytes by PostgreSQL against node:crypto's of what was sent.
    const { rows: digest } = await pool.query(
      `SELECT encode(sha256(convert_to(record::text, 'UTF8')), 'hex') AS h FROM consultations WHERE tenant_id = 'ten-storage' AND id = 'cns-0123456789abcdef01234567'`,
    );
    expect(digest[0].h).toBe(createHash('sha256').update(text).digest('hex'));
    expect(rows[0].method).toBe(lz4 ? 'lz4' : null);
    if (lz4) expect(rows[0].stored).toBeLessThan(text.length);
    // Nothing of the row went out of line: the record stays in the row, and so do the ids beside it.
    const { rows: toast } = await pool.query(
      `SELECT pg_relation_size(c.reltoastrelid)::int AS bytes FROM consultations t JOIN pg_class c ON c.oid = t.tableoid
        WHERE t.tenant_id = 'ten-storage' AND t.id = 'cns-0123456789abcdef01234567'`,
    );
    expect(toast[0].bytes).toBe(0);
  });
}
