#!/usr/bin/env node
// Bundles the CLI into one runnable file, apps/cli/dist/arbiter.js (the package's `arbiter` bin), with
// the same esbuild settings as the services (scripts/bundle.mjs): the SDK, jose, openapi-fetch and
// commander are inside, so it runs from any folder with Node 22.13+ and nothing installed.
//
//   node apps/cli/scripts/build.mjs [--outfile FILE]
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from '../../../scripts/bundle.mjs';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildCli(outfile = path.join(dir, 'dist', 'arbiter.js')) {
  const options = nodeBundleOptions({ entry: path.join(dir, 'src', 'arbiter.ts'), outfile });
  await build({ ...options, banner: { js: `#!/usr/bin/env node\n${options.banner.js}` } });
  chmodSync(outfile, 0o755);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--outfile');
  const outfile = await buildCli(i >= 0 ? path.resolve(process.argv[i + 1]) : undefined);
  process.stdout.write(`built ${path.relative(process.cwd(), outfile)}\n`);
}
