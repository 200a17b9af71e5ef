// How consultation records are stored (ADR 0037): lz4 in the row where the server has lz4, uncompressed in the row
// where it has not; either way a record reads back as the exact text that was hashed and signed.
import { createHash } from 'node:crypto';
import { applyMigrations, createPool, PartitionMaintenance } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { recordsCompressed, verdictTables } from '../src/partitions';

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;
let lz4 = false;

beforeAll(async () => {
  db = await createTestDatabase('verdict_record_storage');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 2 });
  const { rows } = await pool.query<{ lz4: boolean }>(
    `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  lz4 = rows[0].lz4;
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

/** Storage, compression and reloptions of the record column in every consultations partition. */
async function partitionStorage(): Promise<Array<{ name: string; storage: string; compression: string; options: string[] | null }>> {
  const { rows } = await pool.query(
    `SELECT c.relname AS name, a.attstorage AS storage, a.attcompression AS compression, c.reloptions AS options
       FROM pg_partition_tree('consultations') t JOIN pg_class c ON c.oid = t.relid
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'record'
      WHERE t.isleaf ORDER BY 1`,
  );
  return rows;
}

describe('consultation record storage', () => {
  it('compresses records with lz4 only where the server has it, in the partitions made after the migration too', async () => {
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
    const parts = await partitionStorage();
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
});
