#!/usr/bin/env node
// Builds the console's browser app (docs/console.md "How it is built") into apps/console/dist (or --out-dir DIR):
// - main-<hash>.js: src/main.tsx and everything it imports (Preact included), one ES2022 bundle, no CDN;
// - console-<hash>.css: src/console.css;
// - index.html: src/index.html with the two references rewritten to the hashed names;
// - build-stamp.json: the files the build read and a hash of them (--if-stale compares it).
// The registry serves the folder at /console (every app route answers index.html). Content-hashed names let the
// assets be cached while index.html is not.
//
//   node apps/console/build.mjs [--if-stale] [--out-dir DIR] [--quiet]
//
// --if-stale does nothing when the folder was built from the current sources (postinstall, npm start, npm test).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CONSOLE_DIR = path.dirname(fileURLToPath(import.meta.url));
export const CONSOLE_DIST = path.join(CONSOLE_DIR, 'dist');
const SRC = path.join(CONSOLE_DIR, 'src');
const STAMP = 'build-stamp.json';

/**
 * A hash of what a build read: every input of its bundle (the console's sources, the libraries it imports through
 * tsconfig's paths, Preact), the stylesheet and index.html, and this script. Null when one of them is gone.
 */
export function inputsHash(inputs) {
  const hash = crypto.createHash('sha256');
  for (const file of [...inputs, path.relative(CONSOLE_DIR, fileURLToPath(import.meta.url))]) {
    hash.update(file);
    hash.update('\0');
    try {
      hash.update(fs.readFileSync(path.resolve(CONSOLE_DIR, file)));
    } catch {
      return null;
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether `outDir` holds a build of the files its stamp names, none of which has changed since. */
function isFresh(outDir) {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'));
    const hash = Array.isArray(stamp.inputs) ? inputsHash(stamp.inputs) : null;
    return hash !== null && stamp.sources === hash && fs.existsSync(path.join(outDir, 'index.html'));
  } catch {
    return false;
  }
}

/**
 * Builds the app into `outDir` (default apps/console/dist). The files are written to a sibling folder first and
 * moved into place, so a reader never sees half a build. Returns the folder.
 */
export async function buildConsole({ outDir = CONSOLE_DIST, ifStale = false, quiet = false } = {}) {
  if (ifStale && isFresh(outDir)) return outDir;
  const { build } = await import('esbuild');
  const staging = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const started = Date.now();
  const result = await build({
    absWorkingDir: CONSOLE_DIR,
    entryPoints: { main: path.join(SRC, 'main.tsx'), console: path.join(SRC, 'console.css') },
    outdir: staging,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: true,
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const js = outputs.find((f) => /^main-.*\.js$/.test(f));
  const css = outputs.find((f) => /^console-.*\.css$/.test(f));
  if (!js || !css) throw new Error(`console build: unexpected outputs ${outputs.join(', ')}`);
  const html = fs.readFileSync(path.join(SRC, 'index.html'), 'utf8');
  const rewritten = html.replace('/console/main.js', `/console/${js}`).replace('/console/console.css', `/console/${css}`);
  if (!rewritten.includes(js) || !rewritten.includes(css))
    throw new Error('console build: index.html must reference /console/main.js and /console/console.css');
  fs.writeFileSync(path.join(staging, 'index.html'), rewritten);
  // The stamp names what the bundle read (esbuild's metafile, relative to this folder), so that a change to a
  // library the console imports rebuilds it as a change to its own sources does.
  const inputs = [...Object.keys(result.metafile.inputs), path.relative(CONSOLE_DIR, path.join(SRC, 'index.html'))].sort();
  fs.writeFileSync(path.join(staging, STAMP), `${JSON.stringify({ sources: inputsHash(inputs), inputs })}\n`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  try {
    fs.renameSync(staging, outDir);
  } catch (err) {
    // Another build (a second `npm test` at the same moment) moved its own copy of the same sources in first.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!isFresh(outDir)) throw err;
  }
  if (!quiet)
    process.stdout.write(`built console: ${path.relative(process.cwd(), outDir) || '.'} (${js}, ${css}) in ${Date.now() - started} ms\n`);
  return outDir;
}

async function cli(argv) {
  const outIndex = argv.indexOf('--out-dir');
  const outDir = outIndex >= 0 ? path.resolve(argv[outIndex + 1] ?? '') : CONSOLE_DIST;
  const flags = outIndex >= 0 ? [...argv.slice(0, outIndex), ...argv.slice(outIndex + 2)] : argv;
  const unknown = flags.filter((f) => !['--if-stale', '--quiet'].includes(f));
  if (unknown.length || (outIndex >= 0 && !argv[outIndex + 1])) {
    process.stderr.write('usage: node apps/console/build.mjs [--if-stale] [--out-dir DIR] [--quiet]\n');
    return 2;
  }
  try {
    await buildConsole({ outDir, ifStale: flags.includes('--if-stale'), quiet: flags.includes('--quiet') });
    return 0;
  } catch (err) {
    process.stderr.write(`console build failed: ${err.message.split('\n')[0]}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await cli(process.argv.slice(2));
}
