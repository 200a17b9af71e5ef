#!/usr/bin/env node
// Runs an example: bundles examples/<name>.ts with esbuild (resolving @arbiter/client to the SDK's
// sources, as the monorepo does) into tmp/examples/<name>.js and runs it with the same environment.
//
//   node examples/run.mjs agent-loop
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions, ROOT } from '../scripts/bundle.mjs';

const name = process.argv[2];
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), `${name ?? ''}.ts`);
if (!name || !fs.existsSync(entry)) {
  process.stderr.write('usage: node examples/run.mjs <example>   (e.g. agent-loop)\n');
  process.exit(2);
}
const outfile = path.join(ROOT, 'tmp', 'examples', `${name}.js`);
await build(nodeBundleOptions({ entry, outfile }));
const { status } = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exitCode = status ?? 1;
