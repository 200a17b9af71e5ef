import fs from 'node:fs';
import path from 'node:path';
import { reapPostgresOrphan } from './postgres';
import type { LineSink } from './processes';
import { reapRedisOrphan } from './redis';

/**
 * Stops servers a killed run left in `<dir>/pg` and `<dir>/redis` (the layout of `.data/` and of the test servers'
 * folder). Throws DevstackError `already_running` when their owner is still alive.
 */
export async function stopLeftoverServers(dir: string, log?: LineSink): Promise<void> {
  const pg = path.join(dir, 'pg');
  if (fs.existsSync(pg)) await reapPostgresOrphan(fs.realpathSync(pg), log);
  const redis = path.join(dir, 'redis');
  if (fs.existsSync(redis)) await reapRedisOrphan(redis, log);
}
