// Everything the CLI touches outside itself, passed in so that tests run it in-process.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readCapped, readFileCapped, writeFileAtomic, type WriteOptions } from './files';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  readFile(path: string): Promise<string>;
  /** Replaces the file whole, never writing through a link (files.ts); `secret`: mode 0600. */
  writeFile(path: string, data: string, opts?: WriteOptions): Promise<void>;
  readStdin(): Promise<string>;
  now(): Date;
  /**
   * Where `npm start` and `arbiter quickstart` keep stack.env and quickstart.env (docs/cli.md
   * "Configuration"), unless ARBITER_DATA_DIR says otherwise; undefined: no such files.
   */
  dataDir?: string;
}

/**
 * The .data/ folder of the clone this CLI runs from: the bundle is <clone>/apps/cli/dist/arbiter.js (the
 * sources <clone>/apps/cli/src). A bundle copied elsewhere has no clone, hence no files.
 */
export function cloneDataDir(dir: string = __dirname): string | undefined {
  const root = path.resolve(dir, '..', '..', '..');
  return existsSync(path.join(root, 'apps', 'cli', 'bin', 'arbiter.js')) ? path.join(root, '.data') : undefined;
}

export function processIo(): Io {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    fetch: (...args) => globalThis.fetch(...args),
    readFile: (p) => readFileCapped(p),
    writeFile: (p, d, o) => writeFileAtomic(p, d, o),
    readStdin: () => readCapped(process.stdin),
    now: () => new Date(),
    dataDir: cloneDataDir(),
  };
}

/**
 * Exit codes (docs/cli.md): 0 all checks passed / done; 1 a check failed or the service refused; 2 usage,
 * input or connection error; 3 unpinned: no check failed, but the signatures were checked only against keys
 * the artifact carries or the checked service served (no --trust).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, unpinned: 3 } as const;

/** A failure the CLI reports as one clear line and an exit code; never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}
