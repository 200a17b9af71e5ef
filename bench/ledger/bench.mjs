#!/usr/bin/env node
// Ledger benchmark: bundles the registry and ledger services and bench/ledger/run.ts, then runs it.
//
//   node bench/ledger/bench.mjs [--quick] [--json FILE]
//
// It starts its own durable PostgreSQL (fsync and synchronous_commit on, as in production) and Redis in a
// temporary folder with libs/devstack, runs the two services as separate processes, measures, and stops
// everything. Results: docs/benchmarks.md "Ledger".
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, bundleApps, nodeBundleOptions } from '../../scripts/bundle.mjs';

await bundleApps(['registry', 'ledger'], { quiet: true });
const outfile = path.join(ROOT, 'dist', 'bench', 'ledger', 'run.js');
await build(nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'ledger', 'run.ts'), outfile }));
const child = spawn(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
