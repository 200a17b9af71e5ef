// How a bench written in TypeScript is started: its entry file (an `entry` of `verdict/outbox-cycle` names the
// TypeScript file of that name in this folder) bundled with esbuild (scripts/bundle.mjs) under dist/, the apps it
// starts bundled first, then run in the repository's root with the arguments the launcher was given; the launcher
// exits as the bench exits.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, bundleApps, nodeBundleOptions } from '../scripts/bundle.mjs';

/** @param {string} entry e.g. `verdict/outbox-cycle` @param {{ apps?: string[] }} [opts] */
export async function runBench(entry, { apps = [] } = {}) {
  if (apps.length) await bundleApps(apps, { quiet: true });
  const outfile = path.join(ROOT, 'dist', 'bench', `${entry}.js`);
  await build(nodeBundleOptions({ entry: path.join(ROOT, 'bench', `${entry}.ts`), outfile }));
  const child = spawn(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ROOT });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
