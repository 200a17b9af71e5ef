import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, '../..');

/**
 * A service as it ships: main.js and cli.js bundled by scripts/bundle.mjs into the repository's tmp/ (so
 * the few external packages resolve from node_modules). Bundles are kept per hash of everything that goes
 * into them, so test files and reruns share one build.
 */
export async function bundleService(app: 'ledger' | 'verdict'): Promise<{ main: string; cli: string }> {
  const dir = path.join(ROOT, 'tmp', `${app}-bundles`, await sourcesHash(app));
  const files = { main: path.join(dir, 'main.js'), cli: path.join(dir, 'cli.js') };
  const hasCli = existsSync(path.join(ROOT, 'apps', app, 'src', 'cli.ts'));
  if (existsSync(files.main) && (!hasCli || existsSync(files.cli))) return files;
  await mkdir(path.dirname(dir), { recursive: true });
  const building = await mkdtemp(`${dir}-building-`);
  try {
    await run(process.execPath, [path.join(ROOT, 'scripts/bundle.mjs'), app, '--out-dir', building], { cwd: ROOT });
    // Another test file may have finished the same build meanwhile: then keep that one.
    await rename(path.join(building, app), dir).catch((err: NodeJS.ErrnoException) => {
      if (!existsSync(files.main)) throw err;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  // Builds of older sources are of no use once an hour has passed (a concurrent run may still use one).
  for (const name of await readdir(path.dirname(dir))) {
    const other = path.join(path.dirname(dir), name);
    if (other !== dir && (await stat(other)).mtimeMs < Date.now() - 3_600_000) await rm(other, { recursive: true, force: true });
  }
  return files;
}

/** The ledger as it ships (see bundleService). */
export const bundleLedger = () => bundleService('ledger');

async function sourcesHash(app: string): Promise<string> {
  const hash = createHash('sha256');
  const roots = [
    `apps/${app}/src`,
    `prisma/${app}`,
    'libs',
    'scripts/bundle.mjs',
    'docker/migrate.ts',
    'docker/healthcheck.ts',
    'tsconfig.base.json',
    'package-lock.json',
  ];
  const walk = async (rel: string): Promise<void> => {
    const abs = path.join(ROOT, rel);
    if (!existsSync(abs)) return;
    if ((await stat(abs)).isDirectory()) {
      for (const name of (await readdir(abs)).sort()) if (name !== 'node_modules') await walk(path.join(rel, name));
    } else {
      hash.update(rel).update(await readFile(abs));
    }
  };
  for (const r of roots) await walk(r);
  return hash.digest('hex').slice(0, 16);
}

/** Environment of a bundled ledger process (its migrations are next to it). */
export function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...env, LOG_LEVEL: 'info' };
}

export interface LedgerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the ledger's `node main.js` as its own OS process (see spawnService). */
export const spawnLedger = (main: string, env: NodeJS.ProcessEnv, timeoutMs = 20_000) => spawnService('ledger', main, env, timeoutMs);

/** Starts a bundled service's `node main.js` as its own OS process and waits for its "listening" log line. */
export async function spawnService(name: string, main: string, env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<LedgerProcess> {
  const child: ChildProcess = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} process did not listen in time:\n${output}`)), timeoutMs);
    // Keep reading after "listening" (request logs must not fill the pipe), but stop keeping them.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (listening) return;
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"listening"'));
      if (!line) return;
      listening = true;
      clearTimeout(timer);
      resolve(JSON.parse(line).url);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (!listening) output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`${name} process exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs the bundled CLI; resolves with its exit code and output. */
export async function runCli(
  cli: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs scripts/verify-ledger-bundle.mjs; resolves with its exit code and parsed report. */
export async function runVerifier(args: string[]): Promise<{ code: number; report: Record<string, unknown> | null; stderr: string }> {
  const script = path.join(ROOT, 'scripts/verify-ledger-bundle.mjs');
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args]);
    return { code: 0, report: JSON.parse(stdout), stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, report: e.stdout ? JSON.parse(e.stdout) : null, stderr: e.stderr ?? '' };
  }
}
