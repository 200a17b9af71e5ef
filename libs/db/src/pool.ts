import { Pool, type PoolConfig } from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';

export interface DatabaseOptions {
  url: string;
  /** Pool size; one pool is shared by Prisma and the raw SQL hot paths. */
  max?: number;
  applicationName?: string;
}

export function createPool(opts: DatabaseOptions): Pool {
  const config: PoolConfig = {
    connectionString: opts.url,
    max: opts.max ?? 10,
    application_name: opts.applicationName,
    idleTimeoutMillis: 30_000,
  };
  const pool = new Pool(config);
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Prisma 7 runs through the pg driver adapter: no engine binary, nothing downloaded (docs/development.md). */
export function createPrismaClient<T>(Ctor: new (options: { adapter: PrismaPg }) => T, pool: Pool): T {
  return new Ctor({ adapter: new PrismaPg(pool) });
}
