// See record-encoding.mjs.
import fs from 'node:fs';
import { jsonArrayParam } from '@arbiter/db';
import { processCpuSeconds, withOneBackend } from './harness';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ROWS = Number(option('rows', '20000'));
const ROUNDS = Number(option('rounds', '3'));
const BATCH = 64;

/** A record of the stored records' size and shape (~3.9 KB: a signed verdict, a trace of 12 entries, parameters). */
function madeRecord(i: number): string {
  const trace = Array.from({ length: 12 }, (_, j) => ({
    rule_id: `rul-${'x'.repeat(20)}${j}`,
    rule_version_id: `rv-${'y'.repeat(24)}${j}`,
    severity: 'MANDATORY',
    outcome: j % 2 ? 'fired' : 'not_applicable',
    reason: 'conditions matched on parameters.amount',
  }));
  return JSON.stringify({
    id: `cns-${i}`,
    signed_verdict: 'e'.repeat(1213),
    precedence_trace: trace,
    parameters: { amount: 12, currency: 'EUR', order: `o-${i}`, note: 'Zoë ✓' },
    context_hash: `sha256:${'f'.repeat(64)}`,
    normative_hash: `sha256:${'f'.repeat(64)}`,
    state_hash: `sha256:${'f'.repeat(64)}`,
    triggers: [{ kind: 'action', pattern: 'payments.*' }],
    context_snapshot: { 'order.state': { value: 'open' } },
  });
}

const VARIANTS: Record<string, { sql: string; records: (texts: string[]) => unknown }> = {
  json_array_elements: {
    sql: `INSERT INTO t (id, tenant_id, requested_at, record, keep_until)
      SELECT c.id, c.tenant_id, c.requested_at, r.value, c.keep_until
        FROM unnest($1::text[], $2::text[], $3::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS c(id, tenant_id, requested_at, keep_until, n)
        JOIN json_array_elements($4::json) WITH ORDINALITY AS r(value, n) USING (n)`,
    records: (texts) => `[${texts.join(',')}]`,
  },
  // As the ledger sent its facts' payloads: a text[] in text format (every quote and backslash escaped), cast.
  text_array: {
    sql: `INSERT INTO t (id, tenant_id, requested_at, record, keep_until)
      SELECT c.id, c.tenant_id, c.requested_at, c.record::json, c.keep_until
        FROM unnest($1::text[], $2::text[], $3::timestamptz[], $3::timestamptz[], $4::text[]) AS c(id, tenant_id, requested_at, keep_until, record)`,
    records: (texts) => texts,
  },
  binary_json_array: {
    sql: `INSERT INTO t (id, tenant_id, requested_at, record, keep_until)
      SELECT c.id, c.tenant_id, c.requested_at, c.record, c.keep_until
        FROM unnest($1::text[], $2::text[], $3::timestamptz[], $3::timestamptz[], $4::json[]) AS c(id, tenant_id, requested_at, keep_until, record)`,
    records: (texts) => jsonArrayParam(texts),
  },
};

async function main() {
  const file = option('records');
  const records = file ? fs.readFileSync(file, 'utf8').trim().split('\n') : Array.from({ length: 2000 }, (_, i) => madeRecord(i));
  await withOneBackend('record_encoding', async ({ pool: c, pid }) => {
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const mean = Math.round(records.reduce((n, r) => n + Buffer.byteLength(r), 0) / records.length);
    process.stdout.write(
      `${records.length} records (${file ?? 'made'}), mean ${mean} bytes; ${ROWS} rows a variant; load average ${load}\n`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, v] of Object.entries(VARIANTS)) {
        await c.query('DROP TABLE IF EXISTS t');
        // The consultations' shape as the embedded default stores them (uncompressed in the row) and their two indexes.
        await c.query(`CREATE TABLE t (id text NOT NULL, tenant_id text NOT NULL, requested_at timestamptz(3) NOT NULL,
          record json NOT NULL, keep_until timestamptz(3) NOT NULL, PRIMARY KEY (id, keep_until)) WITH (toast_tuple_target = 8160)`);
        await c.query('ALTER TABLE t ALTER COLUMN record SET STORAGE EXTERNAL');
        await c.query('CREATE INDEX ON t (tenant_id, requested_at, id)');
        const backend = processCpuSeconds(pid);
        const node = process.cpuUsage();
        const started = Date.now();
        for (let i = 0; i < ROWS; i += BATCH) {
          const n = Math.min(BATCH, ROWS - i);
          const texts = Array.from({ length: n }, (_, j) => records[(i + j) % records.length]);
          const at = new Date().toISOString();
          await c.query(v.sql, [
            Array.from({ length: n }, (_, j) => `cns-${i + j}`),
            Array.from({ length: n }, () => 'tnt-bench'),
            Array.from({ length: n }, () => at),
            v.records(texts),
          ]);
        }
        const nodeUs = process.cpuUsage(node);
        const stored = await c.query<{ n: number; same: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE record::text = $1)::int AS same FROM t WHERE id = 'cns-0'`,
          [records[0]],
        );
        if (stored.rows[0].same !== 1) throw new Error(`${name}: the first record was not stored as sent`);
        process.stdout.write(
          `round ${round} ${name.padEnd(19)} backend ${(((processCpuSeconds(pid) - backend) * 1e6) / ROWS).toFixed(1)} µs/row, ` +
            `client ${((nodeUs.user + nodeUs.system) / ROWS).toFixed(1)} µs/row, ${Date.now() - started} ms\n`,
        );
      }
    }
  });
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
