#!/usr/bin/env node
// Bundles the ledger's operator CLI (src/cli.ts) next to the service bundle: dist/apps/ledger/cli.js.
// Run after `node scripts/bundle.mjs ledger` (which empties dist/apps/ledger); `npm run build -w
// @arbiter/ledger` runs both. --out-dir DIR bundles elsewhere; --main also bundles the service
// (main.js) there, which the tests use to run real ledger processes.
//
//   node apps/ledger/scripts/bundle-cli.mjs [--out-dir DIR] [--main]
import { build } from 'esbuild';
import path from 'node:path';
import { ROOT, nodeBundleOptions } from '../../../scripts/bundle.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out-dir');
const outDir = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(ROOT, 'dist', 'apps', 'ledger');
const entries = [['cli.ts', 'cli.js'], ...(args.includes('--main') ? [['main.ts', 'main.js']] : [])];
await Promise.all(entries.map(([entry, out]) => build(nodeBundleOptions({ entry: path.join(ROOT, 'apps', 'ledger', 'src', entry), outfile: path.join(outDir, out) }))));
process.stdout.write(`bundled ${entries.map(([, out]) => path.relative(ROOT, path.join(outDir, out))).join(', ')}\n`);
