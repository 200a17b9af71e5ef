#!/usr/bin/env node
// Builds the publishable @arbiter/client into libs/client/dist (or --out-dir DIR):
// - index.cjs and index.mjs: esbuild bundles of src/index.ts. Workspace libs (@arbiter/canonical) are
//   bundled in; jose and openapi-fetch stay dependencies of the package;
// - types/: tsc declarations, checked to reference no workspace-only package.
// Inside the monorepo nothing needs this: the @arbiter/client path alias resolves to src/index.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(dir, '../..');
const outIndex = process.argv.indexOf('--out-dir');
const out = outIndex >= 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(dir, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const external = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), 'express'];

fs.rmSync(out, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  entryPoints: [path.join(dir, 'src/index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.base.json'),
  external,
  keepNames: true,
  logLevel: 'warning',
};
await Promise.all([
  build({ ...common, format: 'cjs', outfile: path.join(out, 'index.cjs') }),
  build({ ...common, format: 'esm', outfile: path.join(out, 'index.mjs') }),
]);

// Declarations: tsc lays them out under the common root of every file it read (libs/), so the
// client's own are moved up to types/.
const tmp = path.join(out, '.types');
execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(dir, 'tsconfig.build.json'), '--outDir', tmp], {
  stdio: 'inherit',
});
const own = fs.existsSync(path.join(tmp, 'client/src')) ? path.join(tmp, 'client/src') : tmp;
fs.renameSync(own, path.join(out, 'types'));
fs.rmSync(tmp, { recursive: true, force: true });
const leaks = [];
for (const file of fs.readdirSync(path.join(out, 'types'), { recursive: true })) {
  const full = path.join(out, 'types', String(file));
  if (full.endsWith('.d.ts') && /from ['"]@arbiter\//.test(fs.readFileSync(full, 'utf8'))) leaks.push(path.relative(out, full));
}
if (leaks.length) {
  process.stderr.write(`declarations reference workspace-only @arbiter/* packages: ${leaks.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`built @arbiter/client ${manifest.version} into ${path.relative(root, out)}: index.cjs, index.mjs, types/\n`);
