#!/usr/bin/env node
// Runs an example: bundles examples/<name>.ts with esbuild (resolving @arbiter/client to the SDK's
// sources, as the monorepo does) into tmp/examples/<name>.js and runs it with the same environment,
// completed as the CLI completes its own (docs/cli.md "Configuration"): under the environment, the URLs
// of .data/quickstart.env, then of .data/stack.env (npm start); and the quickstart file's tenant, ids and
// keys when the URLs in use are the file's, so that the examples reuse the demo tenant of
// `arbiter quickstart` instead of making one per run, and never send its keys to another stack.
//
//   node examples/run.mjs agent-loop
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions, ROOT } from '../scripts/bundle.mjs';

const name = process.argv[2];
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), `${name ?? ''}.ts`);
if (!name || !fs.existsSync(entry)) {
  process.stderr.write('usage: node examples/run.mjs <example>   (e.g. agent-loop)\n');
  process.exit(2);
}
const outfile = path.join(ROOT, 'tmp', 'examples', `${name}.js`);
await build(nodeBundleOptions({ entry, outfile }));
const { status } = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(3)], {
  stdio: 'inherit',
  env: exampleEnv(process.env),
});
process.exitCode = status ?? 1;

/** KEY=value lines of a file under the data directory; none when it is missing. */
function envFile(dir, file) {
  let text = '';
  try {
    text = fs.readFileSync(path.join(dir, file), 'utf8');
  } catch {
    return {};
  }
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].trim();
  }
  return out;
}

function exampleEnv(given) {
  const dir = given.ARBITER_DATA_DIR ? path.resolve(given.ARBITER_DATA_DIR) : path.join(ROOT, '.data');
  const stack = envFile(dir, 'stack.env');
  const quick = envFile(dir, 'quickstart.env');
  const env = { ...given };
  const urls = ['ARBITER_REGISTRY_URL', 'ARBITER_VERDICT_URL', 'ARBITER_LEDGER_URL'];
  for (const name of urls) env[name] ||= quick[name] || stack[name] || undefined;
  const same = (a, b) => (a ?? '').replace(/\/+$/, '') === (b ?? '').replace(/\/+$/, '');
  if (quick.ARBITER_TENANT && urls.every((name) => same(env[name], quick[name]))) {
    for (const name of ['ARBITER_TENANT', 'ARBITER_AGENT_KEY', 'ARBITER_APPROVER_KEY', 'ARBITER_SCOPE_ID']) env[name] ||= quick[name];
  }
  for (const name of urls) if (env[name] === undefined) delete env[name];
  return env;
}
