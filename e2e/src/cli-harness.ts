// Runs the `arbiter` CLI in-process (runCli with captured output) or as the built bin, for the CLI's
// end-to-end tests.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { processIo, type Io } from '../../apps/cli/src/io';
import { runCli } from '../../apps/cli/src/program';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * The CLI with this environment; `offline: true` makes every network access throw. `dataDir`: where it finds
 * stack.env and quickstart.env (default none: the clone's own .data/ never leaks into a test).
 */
export function cli(env: Record<string, string> = {}, opts: { offline?: boolean; dataDir?: string } = {}) {
  return async (...argv: string[]): Promise<CliRun> => {
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = {
      ...processIo(),
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      env,
      fetch: opts.offline ? async () => Promise.reject(new Error('no network in this test')) : processIo().fetch,
      dataDir: opts.dataDir,
    };
    const code = await runCli(argv, io);
    return { code, stdout: out.join(''), stderr: err.join(''), json: () => JSON.parse(out.join('')) };
  };
}

const run = promisify(execFile);

/** The built bin (apps/cli/scripts/build.mjs into `outfile`), as a user runs it. */
export async function runBin(
  binary: string,
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [binary, ...argv], { env: { PATH: process.env.PATH ?? '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export const root = path.resolve(__dirname, '../..');

/** Builds the bin as `npm run build -w @arbiter/cli` does, into `outfile`. */
export async function buildBin(outfile: string): Promise<string> {
  await run(process.execPath, [path.join(root, 'apps/cli/scripts/build.mjs'), '--outfile', outfile], { cwd: root });
  return outfile;
}

/** RFC 8785 written here, independent of the SDK's (which uses @arbiter/canonical). */
export function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`)
    .join(',')}}`;
}
export const sha256Of = (value: unknown) => `sha256:${createHash('sha256').update(jcs(value), 'utf8').digest('hex')}`;

/** Replaces one character in the middle of a base64url JWS segment. */
export function flipSegment(jws: string, segment: number): string {
  const parts = jws.split('.');
  const s = parts[segment];
  const i = Math.floor(s.length / 2);
  parts[segment] = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return parts.join('.');
}
