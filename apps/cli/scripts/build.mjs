#!/usr/bin/env node
// Bundles the CLI into one runnable file, apps/cli/dist/arbiter.js (the package's `arbiter` bin), with
// the same esbuild settings as the services (scripts/bundle.mjs): the SDK, jose, openapi-fetch and
// commander are inside, so it runs from any folder with Node 22.13+ and nothing installed.
//
// Beside it, arbiter.stamp.json names every file the bundle was made of (esbuild's metafile inputs, this script)
// with its size and modification time; the launcher (bin/arbiter.js) builds again when one of them differs
// (docs/cli.md "Running it").
//
//   node apps/cli/scripts/build.mjs [--outfile FILE]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions, ROOT } from '../../../scripts/bundle.mjs';
import { fileStates, STAMP_SUFFIX } from './stamp.cjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the bundle into `outfile` (with its source map) and its stamp beside it. Each file is written under a
 * temporary name and renamed into place, so a second `arbiter` started meanwhile reads a whole bundle, old or new.
 */
export async function buildCli(outfile = path.join(dir, 'dist', 'arbiter.js')) {
  const options = nodeBundleOptions({ entry: path.join(dir, 'src', 'arbiter.ts'), outfile, metafile: true });
  const result = await build({ ...options, write: false, banner: { js: `#!/usr/bin/env node\n${options.banner.js}` } });
  const inputs = [...Object.keys(result.metafile.inputs), path.relative(ROOT, fileURLToPath(import.meta.url))]
    .map((file) => path.resolve(ROOT, file))
    .sort();
  const states = fileStates(inputs);
  if (states === null) throw new Error('an input of the CLI bundle vanished while it was built');
  const files = [
    ...result.outputFiles.map((f) => ({ path: f.path, contents: f.contents })),
    { path: `${outfile}${STAMP_SUFFIX}`, contents: `${JSON.stringify({ inputs: states })}\n` },
  ];
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const staged = [];
  try {
    for (const f of files) {
      const tmp = `${f.path}.tmp-${process.pid}`;
      fs.writeFileSync(tmp, f.contents, { mode: f.path === outfile ? 0o755 : 0o644 });
      staged.push([tmp, f.path]);
    }
    // The stamp last: a bundle is never taken for fresh before it is in place.
    for (const [tmp, final] of staged) fs.renameSync(tmp, final);
  } finally {
    for (const [tmp] of staged) fs.rmSync(tmp, { force: true });
  }
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--outfile');
  const outfile = await buildCli(i >= 0 ? path.resolve(process.argv[i + 1]) : undefined);
  process.stdout.write(`built ${path.relative(process.cwd(), outfile)}\n`);
}
