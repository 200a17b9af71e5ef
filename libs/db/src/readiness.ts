import type { Pool } from 'pg';
import { pendingMigrations, readMigrations, type Migration } from './migrations';

/** A readiness check: the database answers and every migration of `dir` is applied. */
export function migrationsCurrentCheck(pool: Pool, dir: string) {
  let migrations: Promise<Migration[]> | undefined;
  return {
    name: 'database',
    async check() {
      migrations ??= readMigrations(dir);
      const pending = await pendingMigrations((sql) => pool.query(sql), await migrations);
      if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
    },
  };
}

/**
 * Where a service's migrations are: beside its bundle (dist/apps/<service>/migrations, copied by
 * scripts/bundle.mjs) or in the source tree (prisma/<service>/migrations).
 */
export function migrationsDir(service: string, bundleDir: string): string {
  const fromEnv = process.env[`${service.toUpperCase()}_MIGRATIONS_DIR`];
  if (fromEnv) return fromEnv;
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const candidates = [path.join(bundleDir, 'migrations'), path.resolve(bundleDir, '../../../prisma', service, 'migrations')];
  return candidates.find((d) => fs.existsSync(d)) ?? candidates[candidates.length - 1];
}
