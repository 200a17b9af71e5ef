import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { formatEnvFile, QUICKSTART_FILE, STACK_FILE } from '../../apps/cli/src/settings';
import { buildBin } from './cli-harness';
import { describeFailure, prepareWorkdir, ROOT, runShellBlock, trackedState, typeCheck } from './docs/runner';
import { extractBlocks, fillUrls, planBlocks, type Step } from './docs/samples';
import { startStack, type Stack } from './stack';

/**
 * Every sample of README.md and docs/*.md, run as written (docs/development.md "Doc samples"): the shell
 * blocks of each doc in order, in a folder of their own, against one stack started here, with the stack
 * file `npm start` writes and the quickstart file `arbiter quickstart` writes; included files compared with
 * the doc's text and type-checked.
 */
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const plans = DOCS.map((file) => ({ file, ...planBlocks(extractBlocks(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) }));
const withRuns = plans.filter((p) => p.steps.some((s) => s.kind === 'run'));
const includes = plans.flatMap((p) => p.steps.filter((s): s is Extract<Step, { kind: 'include' }> => s.kind === 'include'));

jest.setTimeout(180_000);

describe('doc samples', () => {
  let stack: Stack;
  let scratch: string;
  let baseEnv: Record<string, string>;
  let dataFiles: Record<string, string>;
  let urls: { registry: string; verdict: string; ledger: string };
  let before: string;

  beforeAll(async () => {
    before = trackedState();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-samples-run-'));
    // The CLI as `arbiter` on the PATH, built from today's sources (the documented install puts the same on the PATH).
    const bin = path.join(scratch, 'bin');
    fs.mkdirSync(bin);
    const cli = await buildBin(path.join(scratch, 'cli', 'arbiter.js'));
    fs.writeFileSync(path.join(bin, 'arbiter'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    urls = { registry: stack.registry.url, verdict: stack.verdict.url, ledger: stack.ledger.url };
    // What `npm start` writes (.data/stack.env), and the demo tenant of `arbiter quickstart` with its file.
    const stackFile = formatEnvFile(['written by the doc samples test'], {
      ARBITER_REGISTRY_URL: urls.registry,
      ARBITER_VERDICT_URL: urls.verdict,
      ARBITER_LEDGER_URL: urls.ledger,
    });
    const data = path.join(scratch, 'data');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, STACK_FILE), stackFile);
    await promisify(execFile)(process.execPath, [cli, '--quiet', 'quickstart'], {
      env: { PATH: process.env.PATH ?? '', ARBITER_DATA_DIR: data, ARBITER_ADMIN_KEY: stack.registry.adminKey },
    });
    dataFiles = { [STACK_FILE]: stackFile, [QUICKSTART_FILE]: fs.readFileSync(path.join(data, QUICKSTART_FILE), 'utf8') };
    const npmPrefix = path.join(scratch, 'npm-global');
    baseEnv = {
      // `npm install -g` (docs/cli.md "Running it") installs under the test's own prefix; `arbiter` is the fresh build first.
      PATH: `${bin}:${path.join(npmPrefix, 'bin')}:${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NPM_CONFIG_PREFIX: npmPrefix,
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
      NPM_CONFIG_FUND: 'false',
      NPM_CONFIG_AUDIT: 'false',
      LANG: 'C.UTF-8',
      // What `npm start` prints and a reader exports: the platform admin key.
      ARBITER_ADMIN_KEY: stack.registry.adminKey,
    };
  });

  afterAll(async () => {
    await stack?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('every fenced block has a language; each TypeScript or JavaScript sample is a file the doc includes, or an illustration', () => {
    expect(plans.flatMap((p) => p.problems)).toEqual([]);
  });

  it('every included file is the text of its block, and the TypeScript ones type-check', () => {
    const differ = includes.filter(
      (s) => !fs.existsSync(path.join(ROOT, s.path)) || fs.readFileSync(path.join(ROOT, s.path), 'utf8') !== s.block.text,
    );
    expect(differ.map((s) => `${s.block.file}:${s.block.line}: the block is not the text of ${s.path}`)).toEqual([]);
    const typescript = includes.filter((s) => s.path.endsWith('.ts')).map((s) => path.join(ROOT, s.path));
    expect(typescript.length ? typeCheck(typescript) : []).toEqual([]);
  });

  describe.each(withRuns.map((p) => [p.file, p] as const))('%s', (_file, plan) => {
    let cwd: string;
    let env: Record<string, string>;
    let state = '';
    let failed: string | undefined;
    const runs = plan.steps.filter((s) => s.kind === 'run');

    beforeAll(() => {
      cwd = prepareWorkdir(dataFiles);
      // ARBITER_DATA_DIR: the CLI looks for the quickstart file in the doc's own folder, never in the clone's .data/.
      env = { ...baseEnv, HOME: path.join(cwd, 'home'), ARBITER_DATA_DIR: path.join(cwd, '.data') };
    });
    afterAll(() => {
      if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
    });

    it.each(runs.map((s) => [s.block.line, s] as const))('the block at line %d runs', async (line, step) => {
      if (failed) throw new Error(`not run: the block at line ${failed} of ${plan.file} failed before it`);
      const run = await runShellBlock(fillUrls(step.block.text, urls), { cwd, env, state, timeoutMs: 150_000, firstLine: line + 1 });
      if (run.code !== 0 || run.state === undefined) {
        failed = String(line);
        throw new Error(describeFailure(`${plan.file}:${line}`, run));
      }
      state = run.state;
      // DOC_SAMPLES_LOG=1: what each block printed, to read a doc's run (docs/development.md "Doc samples").
      if (process.env.DOC_SAMPLES_LOG) process.stderr.write(`--- ${plan.file}:${line}\n${run.stdout}${run.stderr}`);
    });
  });

  it('leaves the clone as it found it (no sample writes into its files)', () => {
    expect(trackedState()).toBe(before);
  });
});
