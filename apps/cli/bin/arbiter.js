#!/usr/bin/env node
// The `arbiter` command as npm links it: on the PATH by `npm install -g ./apps/cli` (docs/cli.md "Running it"),
// and in the clone's node_modules/.bin. The CLI itself is one bundled file, apps/cli/dist/arbiter.js; when it is
// missing, as in a fresh clone, it is built here first, once. After changing the CLI's sources, build it
// again with `npm run build -w @arbiter/cli`.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const dist = path.join(__dirname, '..', 'dist', 'arbiter.js');

async function main() {
  if (!existsSync(dist)) {
    process.stderr.write('arbiter: building the CLI (first use) …\n');
    const { buildCli } = await import(pathToFileURL(path.join(__dirname, '..', 'scripts', 'build.mjs')).href);
    await buildCli(dist);
  }
  require(dist);
}

main().catch((err) => {
  process.stderr.write(`arbiter: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
