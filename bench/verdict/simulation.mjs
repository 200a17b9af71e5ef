#!/usr/bin/env node
// Simulation benchmark: bundles the registry and verdict services and
// bench/verdict/simulation.ts, then runs it.
//
//   node bench/verdict/simulation.mjs [--consultations 100000] [--rounds 3] [--rules 100] [--json FILE]
//
// It starts its own durable PostgreSQL and Redis in a temporary folder with libs/devstack, runs the
// registry and the verdict gateway as separate processes, stores the consultations, times the
// simulation through HTTP, and stops everything. Results: docs/benchmarks.md "Simulation".
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EXTERNALS, ROOT, bundleApps, nodeBundleOptions } from '../../scripts/bundle.mjs';

await bundleApps(['registry', 'verdict'], { quiet: true });
const out = path.join(ROOT, 'dist', 'bench', 'verdict', 'simulation.js');
await build({ ...nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'verdict', 'simulation.ts'), outfile: out }), external: EXTERNALS });
const child = spawn(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
