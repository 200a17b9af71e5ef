import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { testPgUrl } from './env';

/**
 * A fresh, empty database on the harness's PostgreSQL for one test file, so files run in
 * parallel without seeing each other's rows. The service under test applies its own migrations.
 */
export async function createTestDatabase(label: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = testPgUrl();
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A pool a test reads or tampers with stored rows through. Its clients' errors are ignored, as the services' own pools
 * do: the file's database is dropped WITH (FORCE) at its end, and that can reach a client `end()` has let go of but
 * whose connection is still closing; an error event nobody listens to would fail the whole file.
 */
export function testPool(url: string, max: number): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
