#!/usr/bin/env node
// `npm test [-- jest args]`: every project's tests through the root jest.config.js, whose global setup starts a
// real PostgreSQL and Redis once (libs/testing/src/global-setup.ts). Arguments are passed to Jest unchanged
// (a path or project filter, --ci, --json --outputFile=<file>, ...). Exits with Jest's exit code.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole } from '../apps/console/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');

// The console's browser app, rebuilt when its sources changed since the last build: the registry serves it in the
// e2e stacks and the browser tests load it (docs/console.md "How it is built").
try {
  await buildConsole({ ifStale: true, quiet: true });
} catch (err) {
  process.stderr.write(`npm test: the console build failed: ${err.message.split('\n')[0]}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
// In CI: no interactive snapshot writing, no watch prompts.
if (process.env.CI && process.env.CI !== 'false' && !args.includes('--ci')) args.unshift('--ci');

const child = spawn(process.execPath, [jestBin, ...args], {
  cwd: root,
  stdio: 'inherit',
  // Nx (the monorepo tool) stays offline and daemon-free when a test or script invokes it.
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
});

// Jest owns the terminal while it runs: pass termination signals on so its teardown stops the test servers.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}

child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1) : 1));
});
child.on('error', (err) => {
  process.stderr.write(`npm test: could not run Jest: ${err.message}\n`);
  process.exit(1);
});
