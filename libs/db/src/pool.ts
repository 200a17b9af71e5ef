import { Pool, type PoolConfig } from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { applyMigrations } from './migrations';
import { migrationsDir } from './readiness';

export interface DatabaseOptions {
  url: string;
  /** Pool size; one pool is shared by Prisma and the raw SQL hot paths. */
  max?: number;
  applicationName?: string;
  /**
   * Sent as the session's lock_timeout and statement_timeout on every connection (milliseconds): a statement
   * that waits for a lock or runs longer fails; also the longest wait for a connection. Unset: no limit.
   */
  timeoutMs?: number;
}

export function createPool(opts: DatabaseOptions): Pool {
  const config: PoolConfig = {
    connectionString: opts.url,
    max: opts.max ?? 10,
    application_name: opts.applicationName,
    idleTimeoutMillis: 30_000,
    ...(opts.timeoutMs !== undefined
      ? { lock_timeout: opts.timeoutMs, statement_timeout: opts.timeoutMs, connectionTimeoutMillis: opts.timeoutMs }
      : {}),
  };
  const pool = new Pool(config);
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * How long an interactive transaction may wait for a pooled connection, and run. Prisma's defaults
 * (2 s, 5 s) fail a request with a 500 whenever the pool is busy for two seconds (a start on a loaded
 * machine, a burst); the registry's writers already used these bounds, now every transaction does.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** Prisma 7 runs through the pg driver adapter: no engine binary, nothing downloaded (docs/development.md). */
export function createPrismaClient<T>(
  Ctor: new (options: { adapter: PrismaPg; transactionOptions: { maxWait: number; timeout: number } }) => T,
  pool: Pool,
): T {
  return new Ctor({ adapter: new PrismaPg(pool), transactionOptions: { ...TRANSACTION_OPTIONS } });
}

/**
 * For a service's operator CLI (apps/<service>/src/cli.ts): applies the service's migrations (bundled next to the
 * CLI, or the repository's), then lends `fn` a two-connection pool, ended afterwards whatever `fn` does.
 */
export async function withMigratedPool<T>(
  opts: { url: string; service: string; bundleDir: string; applicationName: string },
  fn: (pool: Pool) => Promise<T>,
): Promise<T> {
  await applyMigrations(opts.url, migrationsDir(opts.service, opts.bundleDir));
  const pool = createPool({ url: opts.url, max: 2, applicationName: opts.applicationName });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}
