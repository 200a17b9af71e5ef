// See lookup-by-id.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { applyMigrations, newTimeOrderedId } from '@arbiter/db';
import { mintTenantId } from '@arbiter/auth';
import { ConsultationRepository } from '../../apps/verdict/src/repositories/consultations.repository';
import { processCpuSeconds, withOneBackend } from './harness';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const PARTITIONS = option('partitions', '90,1000').split(',').map(Number);
const ROWS = Number(option('rows', '200'));
const LOOKUPS = Number(option('lookups', '2000'));
const DAY = 86_400_000;
const RETENTION = 90 * DAY;
const TENANT = mintTenantId('tnt-bench');

const day = (ms: number) => new Date(Math.floor(ms / DAY) * DAY);
const partitionName = (from: Date) => `consultations_p${from.toISOString().slice(0, 10).replaceAll('-', '')}t0000`;

async function main() {
  await withOneBackend('lookup', async ({ url, pool, pid }) => {
    await applyMigrations(url, path.join(process.cwd(), 'prisma', 'verdict', 'migrations'));
    // The migrations' own partitions (empty) make way for one a day, as maintenance keeps them.
    const { rows: made0 } = await pool.query<{ name: string }>(
      `SELECT relid::regclass::text AS name FROM pg_partition_tree('consultations') WHERE isleaf AND relid::regclass::text <> 'consultations_default'`,
    );
    for (const r of made0) await pool.query(`DROP TABLE ${r.name}`);
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    process.stdout.write(`${ROWS} rows a partition, ${LOOKUPS} lookups of stored ids a variant; load average ${load}\n`);
    // Records written over the past days: the one written d days ago keeps until (now - d) + the retention.
    const now = Date.now();
    const ids: Array<{ id: string; keepUntil: Date }> = [];
    let made = 0;
    for (const target of PARTITIONS) {
      for (; made < target; made++) {
        const from = day(now + RETENTION - made * DAY);
        await pool.query(
          `CREATE TABLE ${partitionName(from)} PARTITION OF consultations FOR VALUES FROM ('${from.toISOString()}') TO ('${new Date(from.getTime() + DAY).toISOString()}')`,
        );
        const written = from.getTime() - RETENTION + DAY / 2;
        const batch = Array.from({ length: ROWS }, (_, i) => newTimeOrderedId('cns-', written + i));
        await pool.query(
          `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, record, keep_until)
           SELECT id, $2, 'agn-bench', to_timestamp($3 / 1000.0), 'act', 'allowed', '{"verdict":"allowed"}', to_timestamp($3 / 1000.0) + $4 * interval '1 millisecond'
             FROM unnest($1::text[]) AS id`,
          [batch, TENANT, written, RETENTION],
        );
        for (const id of batch.slice(0, 4)) ids.push({ id, keepUntil: new Date(written + RETENTION) });
      }
      await pool.query('ANALYZE consultations');
      // The gateway's repository: knowing no retention it looks in every partition at once (as before the
      // first look existed); knowing the one in use it looks where the record lies first.
      const everywhere = new ConsultationRepository(pool, { retentions: () => [] });
      const threeHinted = new ConsultationRepository(pool, { retentions: () => [30 * DAY, RETENTION, 365 * DAY] });
      const hinted = new ConsultationRepository(pool, { retentions: () => [RETENTION] });
      const variants: Record<string, (x: { id: string }) => Promise<unknown>> = {
        'every partition (no retention known)': (x) => everywhere.find(TENANT, x.id),
        'the retention in use first': (x) => hinted.find(TENANT, x.id),
        'three retentions in use first (30d, 90d, 365d)': (x) => threeHinted.find(TENANT, x.id),
      };
      for (const [name, lookup] of Object.entries(variants)) {
        const cpu0 = processCpuSeconds(pid);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < LOOKUPS; i++) {
          if (!(await lookup(ids[(i * 7919) % ids.length]))) throw new Error(`${name}: not found`);
        }
        const wall = Number(process.hrtime.bigint() - t0) / 1e3 / LOOKUPS;
        const cpu = ((processCpuSeconds(pid) - cpu0) * 1e6) / LOOKUPS;
        process.stdout.write(`${target} partitions, ${name}: ${wall.toFixed(0)} µs a lookup, PostgreSQL CPU ${cpu.toFixed(0)} µs\n`);
      }
    }
  });
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
