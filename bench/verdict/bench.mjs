#!/usr/bin/env node
// Verdict benchmark (issue 5): bundles the registry and verdict services, the express floor and
// bench/verdict/run.ts, then runs it.
//
//   node bench/verdict/bench.mjs [--quick] [--json FILE]
//
// It starts its own durable PostgreSQL (fsync and synchronous_commit on) and Redis in a temporary
// folder with libs/devstack, runs the registry, the verdict gateway and the floor as separate
// processes, measures, and stops everything. Results: docs/benchmarks.md "Verdict".
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EXTERNALS, ROOT, bundleApps, nodeBundleOptions } from '../../scripts/bundle.mjs';

await bundleApps(['registry', 'verdict'], { quiet: true });
const out = (name) => path.join(ROOT, 'dist', 'bench', 'verdict', `${name}.js`);
// cedar-wasm loads its .wasm file from its own folder: it stays in node_modules.
const external = [...EXTERNALS, '@cedar-policy/cedar-wasm', '@cedar-policy/cedar-wasm/nodejs'];
for (const name of ['run', 'floor']) {
  await build({ ...nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'verdict', `${name}.ts`), outfile: out(name) }), external });
}
const child = spawn(process.execPath, [out('run'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
