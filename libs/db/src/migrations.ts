import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

/**
 * Applies hand-written SQL migrations kept in Prisma's folder layout
 * (`<dir>/<timestamp>_<name>/migration.sql`) and records them in `_prisma_migrations`
 * exactly as `prisma migrate deploy` does, so either tool can take over (ADR 0003).
 * Replicas starting at once serialise on the advisory lock Prisma itself uses.
 */
export const PRISMA_MIGRATE_LOCK = 72707369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
  /**
   * Earlier texts of this migration a database may have recorded, from the optional `<name>/earlier-checksums`
   * file: written when a migration's comments were corrected after it was applied. Each is accepted only while the
   * current text differs from it in whole-line comments alone, which the applier checks itself (codeChecksum).
   */
  earlier: EarlierText[];
}

/** One earlier text: its checksum, and the checksum of its code (the text without whole-line `--` comments). */
export interface EarlierText {
  checksum: string;
  code: string;
}

/**
 * The earlier-checksums file of a migration folder: one earlier text per line, `<checksum> <code checksum>`;
 * `#` starts a comment.
 */
export const EARLIER_CHECKSUMS_FILE = 'earlier-checksums';

export function sqlChecksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/**
 * The checksum of a migration's code: its text without whole-line `--` comments. A comment at the end of a code
 * line counts as code, so only edits that cannot change what runs keep this checksum.
 */
export function codeChecksum(sql: string): string {
  return sqlChecksum(
    sql
      .split('\n')
      .filter((line) => !/^\s*--/.test(line))
      .join('\n'),
  );
}

async function readEarlierTexts(file: string): Promise<EarlierText[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const [checksum = '', code = ''] = line.split(/\s+/);
      return { checksum, code };
    });
}

export class MigrationError extends Error {
  constructor(
    readonly code: 'checksum_mismatch' | 'failed_migration' | 'migration_failed' | 'unknown_migration',
    message: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

const TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      const earlier = await readEarlierTexts(path.join(dir, name, EARLIER_CHECKSUMS_FILE));
      return { name, sql, checksum: sqlChecksum(sql), earlier };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function appliedRows(client: Client): Promise<AppliedRow[]> {
  const exists = await client.query(`SELECT to_regclass('"_prisma_migrations"') AS t`);
  if (!exists.rows[0].t) return [];
  const { rows } = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
  );
  return rows;
}

/** The recorded checksum is an earlier text of `m` whose code the current text still has. */
function isCommentOnlyAmendment(m: Migration, recorded: string): boolean {
  const earlier = m.earlier.find((e) => e.checksum === recorded);
  return earlier !== undefined && earlier.code === codeChecksum(m.sql);
}

function check(migrations: Migration[], rows: AppliedRow[]): Migration[] {
  const live = rows.filter((r) => r.rolled_back_at === null);
  const failed = live.find((r) => r.finished_at === null);
  if (failed) {
    throw new MigrationError('failed_migration', `Migration ${failed.migration_name} failed earlier; resolve it before starting`);
  }
  const byName = new Map(live.map((r) => [r.migration_name, r]));
  for (const m of migrations) {
    const row = byName.get(m.name);
    if (row && row.checksum !== m.checksum && !isCommentOnlyAmendment(m, row.checksum)) {
      throw new MigrationError('checksum_mismatch', `Migration ${m.name} was changed after it was applied`);
    }
  }
  return migrations.filter((m) => !byName.has(m.name));
}

/**
 * The first line of a migration that runs outside a transaction (ADR 0034): statement by statement, for what
 * PostgreSQL refuses in one (CREATE INDEX CONCURRENTLY) and for long work that must not hold the locks of the
 * statements before it (VALIDATE CONSTRAINT). Each statement ends its line with `;` and must be safe to run again:
 * a run that fails records nothing and the next start runs the migration from its first statement.
 */
export const NO_TRANSACTION = '-- arbiter:no-transaction';

/** The statements of a no-transaction migration: whole-line comments dropped, split after each line ending in `;`. */
export function migrationStatements(sql: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line) || (!line.trim() && !current.length)) continue;
    current.push(line);
    if (/;\s*$/.test(line)) {
      out.push(current.join('\n').trim());
      current = [];
    }
  }
  if (current.join('').trim()) out.push(current.join('\n').trim());
  return out;
}

const RECORD = `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), now(), 1)`;

async function applyOne(client: Client, m: Migration): Promise<void> {
  if (m.sql.startsWith(NO_TRANSACTION)) {
    try {
      for (const statement of migrationStatements(m.sql)) await client.query(statement);
      await client.query(RECORD, [randomUUID(), m.checksum, m.name]);
    } catch (err) {
      throw new MigrationError('migration_failed', `Migration ${m.name} failed: ${(err as Error).message}`);
    }
    return;
  }
  for (let attempt = 1; ; attempt++) {
    await client.query('BEGIN');
    try {
      await client.query(m.sql);
      await client.query(RECORD, [randomUUID(), m.checksum, m.name]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK');
      // A migration that could not take its locks in time (its own lock_timeout) or met a request in a deadlock
      // changed nothing: it tries again (ADR 0034).
      if (LOCK_FAILURES.has((err as { code?: string }).code ?? '') && attempt < LOCK_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        continue;
      }
      throw new MigrationError('migration_failed', `Migration ${m.name} failed: ${(err as Error).message}`);
    }
  }
}

/** lock_not_available, deadlock_detected: what a migration meeting live traffic may hit, and retry. */
const LOCK_FAILURES = new Set(['55P03', '40P01']);
const LOCK_ATTEMPTS = 10;

export interface ApplyResult {
  applied: string[];
}

export async function applyMigrations(databaseUrl: string, dir: string): Promise<ApplyResult> {
  const migrations = await readMigrations(dir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    try {
      await client.query(TABLE);
      const pending = check(migrations, await appliedRows(client));
      for (const m of pending) await applyOne(client, m);
      return { applied: pending.map((m) => m.name) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/** Names of migrations not yet applied; readiness is false while any remain. */
export async function pendingMigrations(
  query: (sql: string) => Promise<{ rows: AppliedRow[] }>,
  migrations: Migration[],
): Promise<string[]> {
  let rows: AppliedRow[] = [];
  try {
    rows = (await query(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`)).rows;
  } catch {
    return migrations.map((m) => m.name);
  }
  const done = new Set(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => r.migration_name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
