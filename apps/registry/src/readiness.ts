import type { ReadinessCheck } from '@arbiter/http';
import { pendingMigrations, readMigrations, type Migration } from '@arbiter/db';
import type { RegistryContext } from './context';
import { registryMigrationsDir } from './context';

/** Ready when the database answers with every migration applied, and Redis answers. */
export function readinessChecks(ctx: RegistryContext): ReadinessCheck[] {
  let migrations: Promise<Migration[]> | undefined;
  return [
    {
      name: 'database',
      async check() {
        migrations ??= readMigrations(registryMigrationsDir());
        const pending = await pendingMigrations((sql) => ctx.pool.query(sql), await migrations);
        if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
      },
    },
    {
      name: 'redis',
      async check() {
        await ctx.redis.ping();
      },
    },
  ];
}
