import type { ReadinessCheck } from '@arbiter/http';
import { migrationsCurrentCheck } from '@arbiter/db';
import type { RegistryContext } from './context';
import { registryMigrationsDir } from './context';

/** Ready when the database answers with every migration applied, and Redis answers. */
export function readinessChecks(ctx: RegistryContext): ReadinessCheck[] {
  return [migrationsCurrentCheck(ctx.pool, registryMigrationsDir()), { name: 'redis', check: async () => void (await ctx.redis.ping()) }];
}
