import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DevstackError } from './errors';
import { findFreePort, isPortFree } from './ports';
import { forwardLines, hasExited, LineSink, LogTail, reapOrphan, stopOnExit, terminate, writeOwnerRecord } from './processes';
import { isRoot } from './postgres-runtime';

export interface StartRedisOptions {
  /** Working directory of the server (pid file, owner record). Nothing is persisted: --save "" --appendonly no. */
  dir: string;
  /** TCP port on 127.0.0.1; a free one when omitted. */
  port?: number;
  /** Ports a free one must not be: chosen for other servers that have not bound them yet. */
  avoidPorts?: number[];
  /** Receives what this module does on the caller's behalf (installing redis-server, reaping orphans). */
  log?: LineSink;
  /** Receives the server's output; by default only kept for error messages. */
  serverLog?: LineSink;
  /** Install redis-server with apt-get when it is missing and this process is root. Default true. */
  autoInstall?: boolean;
  /** See StartPostgresOptions.detached. Default false. */
  detached?: boolean;
  /** How long to wait for PING to answer. Default 10 s. */
  startTimeoutMs?: number;
}

export interface RedisHandle {
  url: string;
  port: number;
  pid: number;
  /** SIGTERM, escalating to SIGKILL after 5 s. Idempotent. */
  stop(): Promise<void>;
}

const INSTALL_HINT =
  'Install it (Debian/Ubuntu: "sudo apt-get install -y redis-server", macOS: "brew install redis") ' +
  'or set REDIS_URL to an existing Redis server.';

/** The first executable `redis-server` on PATH (plus the usual sbin/bin folders PATH sometimes lacks). */
export function findRedisServer(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/local/bin', '/usr/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, 'redis-server');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function hasAptGet(): boolean {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function runLogged(command: string, args: string[], log: LineSink): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    forwardLines([child.stdout, child.stderr], log);
    child.once('error', () => resolve(null));
    child.once('close', resolve);
  });
}

/**
 * Finds redis-server, installing it with apt-get when it is missing, this process is root and apt-get exists (what a
 * user or CI would do by hand). No npm package ships a Redis binary.
 */
export async function ensureRedisServer(options: { autoInstall?: boolean; log?: LineSink } = {}): Promise<string> {
  const log = options.log ?? (() => undefined);
  const found = findRedisServer();
  if (found) return found;
  if ((options.autoInstall ?? true) && isRoot() && hasAptGet()) {
    log('redis-server is not installed: running "apt-get update && apt-get install -y redis-server"');
    if ((await runLogged('apt-get', ['update', '-qq'], log)) === 0) {
      await runLogged('apt-get', ['install', '-y', '-qq', 'redis-server'], log);
    }
    const installed = findRedisServer();
    if (installed) return installed;
  }
  throw new DevstackError('redis_not_installed', `redis-server was not found on PATH. ${INSTALL_HINT}`);
}

/** Sends one command over the wire protocol (RESP) and resolves with the raw reply, or undefined on any failure. */
function redisCommand(port: number, args: string[], host = '127.0.0.1', timeoutMs = 1000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let reply = Buffer.alloc(0);
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('close', () => done(undefined));
    socket.once('connect', () => socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`));
    socket.on('data', (chunk) => {
      reply = Buffer.concat([reply, chunk]);
      const headerEnd = reply.indexOf('\r\n');
      if (headerEnd < 0) return;
      const header = reply.subarray(0, headerEnd).toString('latin1');
      if (header.startsWith('$')) {
        // Bulk string: wait for the announced number of bytes.
        const length = Number(header.slice(1));
        if (reply.length < headerEnd + 2 + length) return;
        done(reply.subarray(headerEnd + 2, headerEnd + 2 + length).toString('utf8'));
      } else {
        done(header);
      }
    });
  });
}

/** Sends PING and resolves true on +PONG. */
export async function pingRedis(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await redisCommand(port, ['PING'], host)) === '+PONG';
}

/** The pid of the Redis server answering on `port` (INFO server), so readiness never mistakes another server for ours. */
async function redisServerPid(port: number): Promise<number | undefined> {
  const info = await redisCommand(port, ['INFO', 'server']);
  const match = info && /process_id:(\d+)/.exec(info);
  return match ? Number(match[1]) : undefined;
}

const PID_FILE = 'redis.pid';
const OWNER_FILE = 'arbiter-owner.json';

/** See reapOrphan: clears a stale pid file and stops a server orphaned by a killed run in `dir`. */
export function reapRedisOrphan(dir: string, log?: LineSink): ReturnType<typeof reapOrphan> {
  return reapOrphan({
    pidFile: path.join(dir, PID_FILE),
    ownerFile: path.join(dir, OWNER_FILE),
    // Redis rewrites its process title to "redis-server 127.0.0.1:<port>".
    looksLikeServer: (argv, owner) => {
      const title = argv.join(' ');
      return /redis-server/.test(title) && (!owner || title.includes(`:${owner.port}`));
    },
    signal: 'SIGTERM',
    label: 'Redis',
    log,
  });
}

/**
 * Starts redis-server as a child process (not daemonized, so it cannot outlive a normal shutdown), in memory only,
 * on 127.0.0.1. The caller decides whether to use an external REDIS_URL instead; this function always starts one.
 */
export async function startRedis(options: StartRedisOptions): Promise<RedisHandle> {
  const log: LineSink = options.log ?? (() => undefined);
  const binary = await ensureRedisServer({ autoInstall: options.autoInstall, log });
  const dir = path.resolve(options.dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pidFile = path.join(dir, PID_FILE);
  const ownerFile = path.join(dir, OWNER_FILE);
  await reapRedisOrphan(dir, log);

  const port = options.port ?? (await findFreePort('127.0.0.1', options.avoidPorts));
  if (!(await isPortFree(port))) {
    throw new DevstackError('port_in_use', `cannot start Redis on 127.0.0.1:${port}: the port is in use`);
  }
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--daemonize',
    'no',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--pidfile',
    pidFile,
  ];
  const tail = new LogTail();
  const child = spawn(binary, args, {
    cwd: dir,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
  spawnError.catch(() => undefined);
  forwardLines([child.stdout, child.stderr], (line) => {
    tail.push(line);
    options.serverLog?.(line);
  });
  const removeExitHook = stopOnExit(child, 'SIGTERM');
  writeOwnerRecord(ownerFile, { ownerPid: process.pid, port });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await terminate(child, 'SIGTERM', 5000);
      removeExitHook();
    })());

  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  try {
    await Promise.race([
      spawnError,
      (async () => {
        for (;;) {
          if (hasExited(child)) {
            const inUse = /Address already in use/i.test(tail.toString());
            throw new DevstackError(
              inUse ? 'port_in_use' : 'redis_start_failed',
              `redis-server exited during start (code ${child.exitCode}, signal ${child.signalCode}):\n${tail}`,
            );
          }
          if ((await redisServerPid(port)) === child.pid) return;
          if (Date.now() > deadline) {
            throw new DevstackError('redis_start_failed', `redis-server did not answer PING on port ${port}:\n${tail}`);
          }
          await new Promise((r) => setTimeout(r, 25));
        }
      })(),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop };
}
