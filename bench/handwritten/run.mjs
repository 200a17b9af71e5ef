#!/usr/bin/env node
// The hand-written pieces against the libraries they replace (docs/benchmarks.md "Hand-written pieces against
// their libraries"): bundles bench/handwritten/<name>.ts with esbuild and runs each in turn.
//
//   node bench/handwritten/run.mjs [rate-limiter] [request-log] [body-reader] [member-names] [--quick]
//
// No name runs them all (a few minutes). rate-limiter starts its own Redis with libs/devstack (redis-server must
// be installed, as for the tests). The libraries compared (rate-limiter-flexible, pino-http, raw-body) are
// devDependencies: nothing shipped imports them.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, nodeBundleOptions } from '../../scripts/bundle.mjs';

const ALL = ['rate-limiter', 'request-log', 'body-reader', 'member-names'];
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
for (const name of names) if (!ALL.includes(name)) throw new Error(`unknown benchmark ${name}; one of ${ALL.join(', ')}`);
let failed = false;
for (const name of names.length ? names : ALL) {
  const outfile = path.join(ROOT, 'dist', 'bench', 'handwritten', `${name}.js`);
  await build(nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'handwritten', `${name}.ts`), outfile }));
  console.log(`\n== ${name} ==`);
  const run = spawnSync(process.execPath, [outfile, ...flags], { stdio: 'inherit', cwd: ROOT });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
