#!/usr/bin/env node
// `npm start`: the embedded default (README.md "Configuration"). Builds the console, bundles the apps and the orchestrator, then runs the
// orchestrator (libs/devstack/src/cli.ts), which starts PostgreSQL, Redis, the three services and the worker, waits
// until they are ready and prints their URLs and the admin key. Ctrl-C stops everything. Data lives in .data/.
// See libs/devstack/src/cli.ts for the environment variables it honours.
import { createRequire } from 'node:module';
import { buildConsole } from '../apps/console/build.mjs';
import { APPS, bundleApps, bundleDevstack } from './bundle.mjs';

const only = process.env.ARBITER_START_APPS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const apps = only ? APPS.filter((app) => only.includes(app)) : APPS;

let cli;
try {
  const started = Date.now();
  // The console's browser app first: the registry serves apps/console/dist at /console (docs/console.md).
  await buildConsole({ ifStale: true, quiet: true });
  await bundleApps(apps, { quiet: true });
  cli = await bundleDevstack({ quiet: true });
  process.stdout.write(`built ${apps.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} catch (err) {
  process.stderr.write(`npm start: the build failed: ${err.message.split('\n')[0]}\n`);
  process.exit(1);
}

// The orchestrator runs in this process (not a child), so Ctrl-C and SIGTERM reach its handlers directly.
const { main } = createRequire(import.meta.url)(cli);
process.exit(await main());
