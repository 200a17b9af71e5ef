#!/usr/bin/env node
// The `arbiter` command as npm links it: on the PATH by `npm install -g ./apps/cli` (docs/cli.md "Running it"),
// and in the clone's node_modules/.bin. The CLI itself is one bundled file, apps/cli/dist/arbiter.js. It is built
// here first when it is missing (a fresh clone) or stale: when a file it was made of (the CLI's sources, the
// libraries and packages it bundles, its build script) changed since, as after a pull; its stamp beside it names
// them (apps/cli/scripts/stamp.cjs).
'use strict';
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { isFresh } = require('../scripts/stamp.cjs');

const dist = path.join(__dirname, '..', 'dist', 'arbiter.js');

async function main() {
  if (!isFresh(dist)) {
    process.stderr.write('arbiter: building the CLI (first use, or its sources changed) …\n');
    const { buildCli } = await import(pathToFileURL(path.join(__dirname, '..', 'scripts', 'build.mjs')).href);
    await buildCli(dist);
  }
  require(dist);
}

main().catch((err) => {
  process.stderr.write(`arbiter: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
