#!/usr/bin/env node
// The gateway's per-check work without HTTP or the database, piece by piece: bundles
// bench/verdict/pipeline.ts and runs it (node bench/verdict/pipeline.mjs). docs/benchmarks.md "Verdict".
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { EXTERNALS, ROOT, nodeBundleOptions } from '../../scripts/bundle.mjs';

const outfile = path.join(ROOT, 'dist', 'bench', 'verdict', 'pipeline.js');
await build({ ...nodeBundleOptions({ entry: path.join(ROOT, 'bench', 'verdict', 'pipeline.ts'), outfile }), external: EXTERNALS });
const child = spawn(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
