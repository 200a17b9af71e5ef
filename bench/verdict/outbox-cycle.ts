// See outbox-cycle.mjs.
import fs from 'node:fs';
import { SealOutboxStore } from '@arbiter/db';
import { processCpuSeconds, withOneBackend } from './harness';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ROWS = Number(option('rows', '20000'));
const ROUNDS = Number(option('rounds', '3'));
const FILLFACTORS = option('fillfactors', '100,50').split(',').map(Number);
/** Rows a gateway batch writes, and rows a relay pass leases (SEAL_BATCH_SIZE at most). */
const BATCH = 64;
const LEASE = 1000;

/** A consultation's seal payload (libs/audit-streams), about 350 bytes. */
const payload = (i: number) =>
  JSON.stringify({
    consultation_id: `cns-${String(i).padStart(24, '0')}`,
    normative_hash: `sha256:${'a'.repeat(64)}`,
    context_hash: `sha256:${'b'.repeat(64)}`,
    verdict: 'allowed',
    signing_kid: 'tnt-bench-000000000000000000-k1',
    decided_at: new Date().toISOString(),
  });

async function main() {
  // One connection: the relay's statements (libs/db SealOutboxStore) run on the backend measured.
  await withOneBackend('outbox_cycle', async ({ pool, pid }) => {
    const store = new SealOutboxStore(pool, 'service:verdict');
    const wal = async () => (await pool.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0].l;
    const walSince = async (from: string) =>
      Number(
        (await pool.query<{ b: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::text AS b', [from])).rows[0].b,
      );
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    process.stdout.write(`${ROWS} rows a variant, inserted ${BATCH} a statement, leased ${LEASE} at a time; load average ${load}\n`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const fillfactor of FILLFACTORS) {
        // seal_outbox's columns and primary key, in one table (a partition of the services' table is one such).
        await pool.query('DROP TABLE IF EXISTS seal_outbox');
        await pool.query(`CREATE TABLE seal_outbox (id bigserial, tenant_id text NOT NULL, stream_id text NOT NULL,
          client_ref text NOT NULL, payload json NOT NULL, attempts int NOT NULL DEFAULT 0, leased_until timestamptz(3),
          created_at timestamptz(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, traceparent text, PRIMARY KEY (id, created_at))
          WITH (fillfactor = ${fillfactor})`);
        const phases: Record<'insert' | 'lease' | 'delete', { cpu: number; wal: number }> = {
          insert: { cpu: 0, wal: 0 },
          lease: { cpu: 0, wal: 0 },
          delete: { cpu: 0, wal: 0 },
        };
        const measure = async <T>(phase: keyof typeof phases, run: () => Promise<T>): Promise<T> => {
          const cpu = processCpuSeconds(pid);
          const from = await wal();
          const result = await run();
          phases[phase].cpu += processCpuSeconds(pid) - cpu;
          phases[phase].wal += await walSince(from);
          return result;
        };
        let hot = 0;
        for (let written = 0; written < ROWS; written += LEASE) {
          // A lease's worth of rows (the last one may hold fewer: --rows need not be a multiple of LEASE).
          const rows = Math.min(LEASE, ROWS - written);
          for (let i = 0; i < rows; i += BATCH) {
            const n = Math.min(BATCH, rows - i);
            const refs = Array.from({ length: n }, (_, j) => `cns-${written + i + j}`);
            await measure('insert', () =>
              pool.query(
                `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload)
                 SELECT 'tnt-bench-000000000000000000', 'arbiter.tnt-bench-000000000000000000.consultations', r, p::json
                   FROM unnest($1::text[], $2::text[]) AS x(r, p)`,
                [refs, refs.map((_, j) => payload(written + i + j))],
              ),
            );
          }
          const pages = async () =>
            (await pool.query<{ page: string }>(`SELECT (ctid::text::point)[0]::bigint::text AS page FROM seal_outbox ORDER BY id`)).rows;
          const before = await pages();
          const lease = await measure('lease', () => store.leaseAnyTenant(LEASE, 60_000));
          // A row leased on its own page: a HOT update (the lease changes no indexed column).
          hot += (await pages()).filter((r, i) => r.page === before[i].page).length;
          await measure('delete', () => store.doneAnyTenant(lease.items.map((item) => item.id)));
        }
        const per = (x: number) => (x / ROWS).toFixed(1);
        const all = Object.values(phases).reduce((a, p) => ({ cpu: a.cpu + p.cpu, wal: a.wal + p.wal }), { cpu: 0, wal: 0 });
        process.stdout.write(
          `round ${round} fillfactor ${fillfactor}: ` +
            Object.entries(phases)
              .map(([name, p]) => `${name} ${per(p.cpu * 1e6)} µs ${per(p.wal)} B`)
              .join(', ') +
            `; in all ${per(all.cpu * 1e6)} µs ${per(all.wal)} B of WAL a row; leased on their own page ${hot} of ${ROWS}\n`,
        );
      }
    }
  });
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
