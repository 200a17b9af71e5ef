#!/usr/bin/env node
// Verdict benchmark: bundles the registry and verdict services, the express floor and
// bench/verdict/run.ts, then runs it.
//
//   node bench/verdict/bench.mjs [--quick] [--json FILE]
//   node bench/verdict/bench.mjs --sealing [--quick] [--rate 1000] [--lag-seconds 30] [--rounds 3] [--json FILE]
//   node bench/verdict/bench.mjs --explain [--quick] [--sizes 10,100,1000] [--json FILE]
//   node bench/verdict/bench.mjs --budget [--quick] [--sizes 100] [--connections 64] [--rounds 2] [--json FILE]
//
// --sealing runs bench/verdict/sealing.ts instead (docs/benchmarks.md "Sealing"): check throughput with
// LEDGER_SEALING off and on in the same run, then the sealing lag at a sustained rate, with the ledger
// and a worker as processes too. --explain runs bench/verdict/explain.ts alone (the engine, no servers):
// what explanations add to a check (docs/benchmarks.md "Explanations"). --budget runs the budget cases of
// bench/verdict/budget.ts (docs/benchmarks.md "Policies that remember").
//
// It starts its own durable PostgreSQL (fsync and synchronous_commit on) and Redis in a temporary
// folder with libs/devstack, runs the registry, the verdict gateway and the floor as separate
// processes, measures, and stops everything. Results: docs/benchmarks.md "Verdict".
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EXTERNALS, ROOT, bundleApps, nodeBundleOptions } from '../../scripts/bundle.mjs';

const SEALING = process.argv.includes('--sealing');
const EXPLAIN = process.argv.includes('--explain');
if (!EXPLAIN) await bundleApps(SEALING ? ['registry', 'verdict', 'ledger', 'worker'] : ['registry', 'verdict'], { quiet: true });
const out = (name) => path.join(ROOT, 'dist', 'bench', 'verdict', `${name}.js`);
// cedar-wasm loads its .wasm file from its own folder: it stays in node_modules.
const external = [...EXTERNALS, '@cedar-policy/cedar-wasm', '@cedar-policy/cedar-wasm/nodejs'];
const entries = EXPLAIN ? ['explain'] : SEALING ? ['sealing'] : ['run', 'floor'];
for (const name of entries) {
  await build({ ...nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'verdict', `${name}.ts`), outfile: out(name) }), external });
}
const args = process.argv.slice(2).filter((a) => a !== '--sealing' && a !== '--explain');
const child = spawn(process.execPath, [out(entries[0]), ...args], { stdio: 'inherit', cwd: ROOT });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
