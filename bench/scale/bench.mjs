#!/usr/bin/env node
// Scale benchmark (docs/benchmarks.md "Scale: partitions, retention and archive"): bundles the registry, the verdict
// gateway and the ledger, bench/scale/run.ts and bench/scale/archive-step.ts, then runs run.ts.
//
//   node bench/scale/bench.mjs [--quick] [--consultations N] [--past-rows A,B,C] [--rounds 3] [--page-requests 300] [--json FILE]
//
// It starts its own durable PostgreSQL (libs/devstack; max_wal_size 4GB for the bulk load) and Redis in a temporary
// folder, runs the registry, the ledger and the verdict gateway as separate processes (each applies its migrations to
// its fresh database), and makes four tenants through the registry API, each with its retention of consultations:
// a big one (90d) and three small ones (1d, 30d, 90d). One real check per fixture request gives each tenant real
// records; those are the templates of the seed. The daily partitions are made by the gateway's own partition
// maintenance (libs/db PartitionMaintenance over the gateway's consultations table, its clock set to each day in turn,
// then the gateway's maintenance route for the partitions ahead of now). Then COPY FROM STDIN (pg-copy-streams)
// streams the records in, each a template with its id (time-ordered), requested_at and one numeric parameter changed:
// 10,000,000 of the big tenant (--quick: 1,000,000) over its 90 live daily partitions, 3 past days of it on top
// (N/90 each, or --past-rows of each: 11111,33333,111111 gives a full-size day of ten million without seeding them),
// 3 past small partitions of the 1-day tenant, and the small tenants' records. Then VACUUM ANALYZE, and it measures:
//
// - bytes on disk per consultation (table, TOAST and maps, indexes over the partitions, / rows);
// - the first page of GET /<tenant>/v1/consultations (p50 / p99 over --page-requests requests, --rounds rounds),
//   for the big tenant and a small one;
// - a day's audit: the list of one UTC day in pages of 1,000 by cursor (the verdict half of the completeness audit);
// - a simulation over the newest 100,000 consultations (POST /<tenant>/v1/simulations);
// - the worker's archive step (apps/worker/src/archive) over each past partition, small and large alternately, in a
//   process of its own writing to a file:// archive: rows/s, that process's RSS and heap before and at peak, and its
//   live heap (after a full GC) every 2,500 rows streamed;
// - the drop of each of those partitions by the gateway's own PartitionMaintenance.drop (libs/db, what
//   POST /internal/v1/maintenance/partitions/<p>/drop runs, with the gateway's archive gate), in this process so that
//   its two steps are timed apart (detach and retire under the table's lock; drop of the retired table), and the
//   gate's count of its rows alone, with the big tenant checking on four connections throughout: the slowest check
//   that overlapped each drop against the checks that overlapped none.
//
// It prints a table (and writes every figure to --json FILE), then stops everything and removes the folder.
//
//   node bench/scale/bench.mjs lock-window [--sizes 11111,33333,111111] [--repeat 3]
//
// runs bench/scale/lock-window.ts instead: how long a reader of the table waits behind a drop, by partition size.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EXTERNALS, ROOT, bundleApps, nodeBundleOptions } from '../../scripts/bundle.mjs';

const lockWindow = process.argv[2] === 'lock-window';
if (!lockWindow) await bundleApps(['registry', 'verdict', 'ledger'], { quiet: true });
for (const name of ['run', 'archive-step', 'lock-window']) {
  const outfile = path.join(ROOT, 'dist', 'bench', 'scale', `${name}.js`);
  await build({ ...nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'scale', `${name}.ts`), outfile }), external: EXTERNALS });
}
const program = path.join(ROOT, 'dist', 'bench', 'scale', lockWindow ? 'lock-window.js' : 'run.js');
const child = spawn(process.execPath, [program, ...process.argv.slice(lockWindow ? 3 : 2)], {
  stdio: 'inherit',
  cwd: ROOT,
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
