import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// Relative import: Jest loads global setup with plain Node resolution, without the moduleNameMapper of the projects.
import { DevstackError, PostgresHandle, RedisHandle, startPostgres, startRedis, stopLeftoverServers } from '../../devstack/src';

/**
 * Starts ONE real PostgreSQL and ONE real Redis for the whole run, in a fresh temporary folder, and hands their URLs
 * to the workers through the environment (workers are started after this runs and inherit process.env):
 * - ARBITER_TEST_PG_URL: superuser URL to the `postgres` database (tests create their own databases);
 * - REDIS_URL and ARBITER_TEST_REDIS_URL.
 * Set ARBITER_TEST_PG_URL / ARBITER_TEST_REDIS_URL beforehand to use external servers instead. Tests never use the
 * user's REDIS_URL: they get a server of their own, which they may flush.
 */

export interface TestServers {
  dir: string;
  postgres?: PostgresHandle;
  redis?: RedisHandle;
  /** Removes the signal handlers installed below. */
  removeSignalHandlers?: () => void;
  /** The variables as they were before the setup, restored by the teardown (Jest's watch mode runs setup again). */
  previousEnv?: Record<string, string | undefined>;
}

const EXPORTED = ['ARBITER_TEST_PG_URL', 'ARBITER_TEST_REDIS_URL', 'REDIS_URL'] as const;

declare global {
  var __ARBITER_TEST_SERVERS__: TestServers | undefined;
}

const PREFIX = 'arbiter-test-';
const OWNER_FILE = 'jest-owner.pid';

/** Stops both servers and deletes their folder; used by the teardown, a failed setup and a termination signal. */
export async function stopTestServers(servers: TestServers): Promise<void> {
  servers.removeSignalHandlers?.();
  for (const [name, value] of Object.entries(servers.previousEnv ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.allSettled([servers.postgres?.stop(), servers.redis?.stop()]);
  fs.rmSync(servers.dir, { recursive: true, force: true });
}

function ownerAlive(dir: string): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders of earlier runs that were killed before their teardown: stop what still runs there, then delete them. */
async function removeLeftovers(log: (line: string) => void): Promise<void> {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(tmp, name);
    // No owner file yet: another run is being set up right now.
    if (!fs.existsSync(path.join(dir, OWNER_FILE)) || ownerAlive(dir)) continue;
    try {
      await stopLeftoverServers(dir, log);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (!(err instanceof DevstackError)) throw err;
    }
  }
}

/**
 * A terminated run (Ctrl-C, a CI timeout's SIGTERM) skips the teardown: stop the servers first, then let the signal
 * do what it would have done.
 */
function stopOnSignals(servers: TestServers): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void stopTestServers(servers).finally(() => process.kill(process.pid, signal));
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}

export default async function globalSetup(): Promise<void> {
  const log = (line: string) => process.stderr.write(`[test servers] ${line}\n`);
  await removeLeftovers(log);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  // As root, PostgreSQL runs as the postgres OS user, which must be able to traverse this folder.
  fs.chmodSync(dir, 0o755);
  const servers: TestServers = { dir };
  globalThis.__ARBITER_TEST_SERVERS__ = servers;
  servers.removeSignalHandlers = stopOnSignals(servers);

  const externalPg = process.env.ARBITER_TEST_PG_URL;
  const externalRedis = process.env.ARBITER_TEST_REDIS_URL;
  try {
    const [pgUrl, redisUrl] = await Promise.all([
      externalPg ??
        startPostgres({
          dataDir: path.join(dir, 'pg'),
          log,
          // A throwaway cluster: durability buys nothing and fsync costs time.
          durable: false,
          // Every test file may open its own pools against several databases.
          settings: { max_connections: '300' },
        }).then((pg) => ((servers.postgres = pg), pg.url)),
      externalRedis ?? startRedis({ dir: path.join(dir, 'redis'), log }).then((redis) => ((servers.redis = redis), redis.url)),
    ]);
    servers.previousEnv = Object.fromEntries(EXPORTED.map((name) => [name, process.env[name]]));
    process.env.ARBITER_TEST_PG_URL = pgUrl;
    process.env.ARBITER_TEST_REDIS_URL = redisUrl;
    process.env.REDIS_URL = redisUrl;
  } catch (err) {
    // Jest skips the teardown when the setup fails: stop whichever server did start.
    globalThis.__ARBITER_TEST_SERVERS__ = undefined;
    await stopTestServers(servers);
    throw err;
  }
}
