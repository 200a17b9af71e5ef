import { Client } from 'pg';
import { createTestDatabase, testPool } from './databases';
import { testPgUrl } from './env';
import { eventually } from './eventually';

describe(testPool.name, () => {
  it('outlives the server ending its idle connection (as the drop of the file database WITH (FORCE) does)', async () => {
    const db = await createTestDatabase('testpool');
    const pool = testPool(db.url, 1);
    const admin = new Client({ connectionString: testPgUrl() });
    await admin.connect();
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(pool.idleCount).toBe(1);
      // The server's FATAL 57P01 reaches an idle client: without a listener on the pool, the error event would be
      // thrown from the socket's handler and fail the whole file.
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await eventually('the terminated client gone from the pool', () => pool.totalCount === 0);
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
      await db.drop();
    }
  });
});
