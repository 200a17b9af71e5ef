// How long a reader of a partitioned table waits behind the drop of one of its partitions, by the partition's size
// (docs/benchmarks.md "Scale: partitions, retention and archive"): the one-transaction drop of the first build
// (DETACH and DROP TABLE, then COMMIT) against the two steps of libs/db PartitionMaintenance.drop (DETACH and rename,
// COMMIT; then DROP TABLE of the retired table, COMMIT).
//
//   node bench/scale/bench.mjs lock-window [--sizes 11111,33333,111111] [--repeat 3]
//
// A durable PostgreSQL (libs/devstack) in a temporary folder; a table partitioned by an integer, each partition of N
// rows of about 5 kB in the row (STORAGE PLAIN: no TOAST, no compression, as a consultation's record), read once
// before its drop as the archive step would have. For each drop, just before the transaction holding the table's
// lock commits, a reader's query on the table is sent and waits behind that lock (seen waiting in pg_stat_activity);
// then COMMIT. Printed per drop: how long COMMIT took to return and how long the waiting reader took to get its answer,
// both from the moment COMMIT was sent, and, for the two steps, the second step's time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startPostgres } from '@arbiter/devstack';
import { log, machine } from '../verdict/harness';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const sizes = option('--sizes', '11111,33333,111111').split(',').map(Number);
const repeat = Number(option('--repeat', '3'));
if (!sizes.every((n) => Number.isSafeInteger(n) && n > 0) || !(repeat > 0)) throw new Error('--sizes A,B,... and --repeat N');

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function client(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Sends a reader's query on the table and resolves once PostgreSQL shows it waiting for a lock. */
async function queuedReader(reader: Client, watcher: Client): Promise<{ done: Promise<bigint> }> {
  const pid = (await reader.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const done = reader.query('SELECT count(*) FROM t WHERE k = -1').then(() => process.hrtime.bigint());
  for (;;) {
    const { rows } = await watcher.query<{ w: string | null }>('SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows[0]?.w === 'Lock') return { done };
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-lock-window-'));
  fs.chmodSync(dir, 0o755);
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_wal_size: '4GB' } });
  const results: Array<Record<string, unknown>> = [];
  try {
    log(`machine: ${JSON.stringify(machine())}`);
    const [owner, reader, watcher] = [await client(pg.url), await client(pg.url), await client(pg.url)];
    await owner.query(`CREATE TABLE t (id bigint, k int, pad text STORAGE PLAIN) PARTITION BY RANGE (k)`);
    await owner.query(`CREATE TABLE t_default PARTITION OF t DEFAULT`);
    let k = 0;
    for (let r = 0; r < repeat; r++) {
      for (const rows of sizes) {
        for (const mode of ['one transaction', 'two steps'] as const) {
          k++;
          await owner.query(`CREATE TABLE t_${k} PARTITION OF t FOR VALUES FROM (${k}) TO (${k + 1})`);
          // 4,800 characters of hex (150 md5s) a row: incompressible enough, and PLAIN keeps it in the row anyway.
          await owner.query(
            `INSERT INTO t_${k} SELECT g, ${k}, (SELECT string_agg(md5(g::text || j::text), '') FROM generate_series(1, 150) j)
               FROM generate_series(1, ${rows}) g`,
          );
          await owner.query(`CHECKPOINT`);
          await owner.query(`SELECT count(*) FROM t_${k}`); // read once, as the archive step reads it before the drop
          const mb = Number((await owner.query<{ b: string }>(`SELECT pg_total_relation_size('t_${k}')::text AS b`)).rows[0].b) / 2 ** 20;
          await owner.query('BEGIN');
          await owner.query(`ALTER TABLE t DETACH PARTITION t_${k}`);
          if (mode === 'one transaction') await owner.query(`DROP TABLE t_${k}`);
          else await owner.query(`ALTER TABLE t_${k} RENAME TO t_retired_${k}`);
          const { done } = await queuedReader(reader, watcher);
          const t0 = process.hrtime.bigint();
          await owner.query('COMMIT');
          const commitMs = ms(t0);
          const readerMs = Number((await done) - t0) / 1e6;
          let secondMs: number | null = null;
          if (mode === 'two steps') {
            const t1 = process.hrtime.bigint();
            await owner.query(`DROP TABLE t_retired_${k}`);
            secondMs = ms(t1);
          }
          const line = {
            mode,
            rows,
            mb: Math.round(mb),
            commit_ms: commitMs,
            reader_waited_after_commit_ms: readerMs,
            second_step_ms: secondMs,
          };
          results.push(line);
          log(JSON.stringify(line));
        }
      }
    }
    for (const c of [owner, reader, watcher]) await c.end();
    log(`load average at the end ${JSON.stringify(os.loadavg().map((x) => Math.round(x * 100) / 100))}`);
  } finally {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
