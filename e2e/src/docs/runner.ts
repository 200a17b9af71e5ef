// Runs the doc samples (docs/development.md "Doc samples"): a shell block in bash, a folder to run a doc's
// blocks in, the check that an included file is the doc's text and type-checks, and the tracked files' state.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '../../..');

export interface BlockRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The variables the block and those before it made, at its end (only when it succeeded): the next block's `state`. */
  state?: string;
  timedOut: boolean;
}

/**
 * Runs one shell block with `set -euo pipefail` (a failing command, a failing stage of a pipeline and an
 * unset variable all fail the block), after the shell variables the doc's earlier blocks made (`state`, as
 * `declare -p` wrote them: exported or not, arrays too), as one shell session would have them. Standard
 * input is empty. Variables of the given environment that a block changes are not carried.
 */
export async function runShellBlock(
  text: string,
  opts: { cwd: string; env: Record<string, string>; state?: string; timeoutMs?: number; firstLine?: number },
): Promise<BlockRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-block-'));
  const stateIn = path.join(dir, 'state-in');
  const stateOut = path.join(dir, 'state-out');
  const script = path.join(dir, 'block.sh');
  fs.writeFileSync(stateIn, opts.state ?? '');
  // The failing command and its line in the doc (the block's text starts on the script's fifth line).
  const offset = (opts.firstLine ?? 1) - 5;
  const prelude = [
    "doc_sample_base=\" $(compgen -v | tr '\\n' ' ') \"", // bash's own variables and the environment: not carried
    '. "$DOC_SAMPLE_STATE_IN"',
    'set -euo pipefail',
    `trap 'doc_sample_status=$?; echo "doc sample: line $((LINENO + ${offset})) failed (exit $doc_sample_status): $BASH_COMMAND" >&2' ERR`,
  ];
  const epilogue =
    'for doc_sample_v in $(compgen -v); do case "$doc_sample_base" in *" $doc_sample_v "*) ;; *) case "$doc_sample_v" in doc_sample_* | BASH* | PIPESTATUS | FUNCNAME | GROUPS | DIRSTACK | _) ;; *) declare -p "$doc_sample_v" ;; esac ;; esac; done > "$DOC_SAMPLE_STATE_OUT"';
  fs.writeFileSync(script, `${prelude.join('\n')}\n${text}\n${epilogue}\n`);
  try {
    const child = spawn('bash', ['--noprofile', '--norc', script], {
      cwd: opts.cwd,
      env: { ...opts.env, DOC_SAMPLE_STATE_IN: stateIn, DOC_SAMPLE_STATE_OUT: stateOut },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, opts.timeoutMs ?? 120_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearTimeout(timer);
    const state = code === 0 && fs.existsSync(stateOut) ? fs.readFileSync(stateOut, 'utf8') : undefined;
    return { code, stdout, stderr, state, timedOut };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The last lines of a block's output, for a failure message. */
export function describeFailure(at: string, run: BlockRun): string {
  const tail = (s: string) => s.trimEnd().split('\n').slice(-30).join('\n');
  const why = run.timedOut ? 'did not finish in time (killed)' : `exited with ${run.code}`;
  return `${at}: the sample ${why}\n--- stdout (last lines)\n${tail(run.stdout)}\n--- stderr (last lines)\n${tail(run.stderr)}`;
}

/** Entries of the repository a doc's folder does not link: its history, local state and build output. */
const NOT_LINKED = new Set(['.git', '.data', 'tmp', 'dist', '.cache', '.nx', 'coverage']);

/**
 * A fresh folder that looks like the clone (every top-level entry linked), where a doc's samples run:
 * the files they write at the top (trust.json, request.json, …) land in it, never in the clone. Its `.data/`
 * is its own, holding `files` (the stack and quickstart files); HOME is a folder of its own too.
 */
export function prepareWorkdir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-samples-'));
  for (const entry of fs.readdirSync(ROOT)) {
    if (!NOT_LINKED.has(entry)) fs.symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  fs.mkdirSync(path.join(dir, '.data'), { mode: 0o700 });
  fs.mkdirSync(path.join(dir, 'home'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, '.data', name), text, { mode: 0o600 });
  return dir;
}

/**
 * `git status` of the clone, which the samples must leave as they found it: every tracked file, and new files where
 * a sample could write through the folder's links (other test files, running beside this one, write only ignored
 * files, but not necessarily only there).
 */
export function trackedState(): string {
  const git = (...args: string[]) => execFileSync('git', ['status', '--porcelain=v1', ...args], { cwd: ROOT, encoding: 'utf8' });
  return git('--untracked-files=no') + git('--untracked-files=all', '--', 'README.md', 'docs', 'examples', 'scripts');
}

/** The TypeScript compiler's complaints about these files, under examples/tsconfig.json. */
export function typeCheck(files: string[]): string[] {
  const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'examples/tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) return ['examples/tsconfig.json cannot be read'];
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, host).trim());
}
