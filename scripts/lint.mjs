#!/usr/bin/env node
// `npm run lint [-- nx args]`: the lint gate (docs/development.md "Conventions", "Formatting", "Type checking"). ESLint on
// every project through Nx (arguments such as --skip-nx-cache go to Nx), the TypeScript compiler over every source file
// (the tests and the bundles only strip types), then `prettier --check` over the whole tree (.prettierignore says what
// is left as written). Every step runs, so that one report shows every violation; exits 1 if any failed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

const steps = [
  { name: 'eslint (nx run-many -t lint)', bin: require.resolve('nx/bin/nx'), args: ['run-many', '-t', 'lint', ...process.argv.slice(2)] },
  // Node code (apps, libs, e2e, tools) in one program; the browser code (the console and its browser tests) has DOM types.
  ...['tsconfig.typecheck.json', 'apps/console/tsconfig.json', 'e2e/src/console/tsconfig.json'].map((project) => ({
    name: `tsc -p ${project}`,
    bin: require.resolve('typescript/bin/tsc'),
    args: ['-p', project, '--noEmit'],
  })),
  { name: 'prettier --check', bin: require.resolve('prettier/bin/prettier.cjs'), args: ['--check', '.', '--log-level', 'warn'] },
];

const failed = [];
for (const step of steps) {
  const result = spawnSync(process.execPath, [step.bin, ...step.args], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) failed.push(step.name);
}
if (failed.length > 0) {
  process.stderr.write(
    `lint failed: ${failed.join(', ')}${failed.includes('prettier --check') ? ' (run `npm run format` to fix the layout)' : ''}\n`,
  );
  process.exit(1);
}
