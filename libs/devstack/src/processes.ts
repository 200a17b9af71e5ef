import { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { DevstackError } from './errors';

/** Receives one line of a child's output (without the newline). */
export type LineSink = (line: string) => void;

/** Keeps the last lines a child printed, so a failed start can say why without flooding a healthy run's output. */
export class LogTail {
  private readonly lines: string[] = [];

  constructor(private readonly max = 40) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.max) this.lines.shift();
  }

  toString(): string {
    return this.lines.join('\n');
  }
}

/** Calls `sink` for every line written to the given streams. */
export function forwardLines(streams: Array<Readable | null | undefined>, sink: LineSink): void {
  for (const stream of streams) {
    if (!stream) continue;
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', sink);
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves true once the child has exited, or false after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * Sends `signal`, waits up to `graceMs`, then SIGKILLs. Resolves once the child is gone (a SIGKILLed child is reaped
 * by the kernel at once, so the last wait is short).
 */
export async function terminate(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (hasExited(child)) return;
  child.kill(signal);
  if (await waitForExit(child, graceMs)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 5000);
}

/**
 * Makes sure a child does not outlive this process when it exits without running the caller's shutdown (an uncaught
 * exception, process.exit in a test runner). Returns the function that removes the hook after a normal stop.
 */
export function stopOnExit(child: ChildProcess, signal: NodeJS.Signals): () => void {
  const hook = () => {
    if (!hasExited(child)) {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', hook);
  return () => process.off('exit', hook);
}

/** True when a process with this id exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The argv of a running process on Linux, or undefined where /proc is not available. */
export function processCommandLine(pid: number): string[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isProcessAlive(pid);
}

/** What this library writes next to a server it started, so a later run can recognise that server if it was orphaned. */
export interface OwnerRecord {
  /** The Node process that started (and is responsible for stopping) the server. */
  ownerPid: number;
  port: number;
}

export function writeOwnerRecord(file: string, record: OwnerRecord): void {
  fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
}

export function readOwnerRecord(file: string): OwnerRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<OwnerRecord>;
    if (typeof parsed.ownerPid === 'number' && typeof parsed.port === 'number') {
      return { ownerPid: parsed.ownerPid, port: parsed.port };
    }
  } catch {
    // Missing or unreadable: treated as no owner.
  }
  return undefined;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0]!.trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** An owner is a live Node process; a pid reused by something else after a restart does not count. */
export function isOwnerAlive(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  const argv = processCommandLine(pid);
  return argv === undefined || /node/.test(argv[0] ?? '');
}

export interface ReapOptions {
  /** The server's own pid file (postmaster.pid, redis.pid). */
  pidFile: string;
  /** The OwnerRecord written when this library started the server. */
  ownerFile: string;
  /** Recognises the server from its command line, so a reused pid of an unrelated process is never signalled. */
  looksLikeServer: (argv: string[], owner: OwnerRecord | undefined) => boolean;
  /** The server's graceful shutdown signal. */
  signal: NodeJS.Signals;
  label: string;
  log?: LineSink;
}

/**
 * Clears what a killed run left behind in a data directory before a new start:
 * - a pid file whose process is gone, or whose pid now belongs to an unrelated process (pids are reused, often in
 *   containers), is deleted: PostgreSQL would otherwise refuse to start ("lock file already exists");
 * - a server still running whose owning Node process is dead is an orphan of a killed run and is stopped;
 * - a server whose owner is still alive belongs to a concurrent run: that is an error, not something to kill.
 */
export async function reapOrphan(options: ReapOptions): Promise<'none' | 'stale' | 'reaped'> {
  const { pidFile, ownerFile, label, log } = options;
  const pid = readPid(pidFile);
  if (pid === undefined) return 'none';
  const owner = readOwnerRecord(ownerFile);
  const argv = isProcessAlive(pid) ? processCommandLine(pid) : undefined;
  const alive = isProcessAlive(pid) && (argv === undefined || options.looksLikeServer(argv, owner));
  if (!alive) {
    fs.rmSync(pidFile, { force: true });
    log?.(`removed stale ${label} pid file ${pidFile} (process ${pid} is gone)`);
    return 'stale';
  }
  if (!owner || (owner.ownerPid !== process.pid && isOwnerAlive(owner.ownerPid))) {
    const by = owner ? `started by process ${owner.ownerPid}` : 'not started by this tool';
    throw new DevstackError(
      'already_running',
      `${label} (pid ${pid}) is already running on ${pidFile}, ${by}. ` +
        `Stop it first (another "npm start" or test run may be using this data directory).`,
    );
  }
  log?.(`stopping orphaned ${label} (pid ${pid}) left running by a killed run`);
  process.kill(pid, options.signal);
  if (!(await waitUntilGone(pid, 10_000))) {
    process.kill(pid, 'SIGKILL');
    await waitUntilGone(pid, 5000);
  }
  fs.rmSync(pidFile, { force: true });
  return 'reaped';
}
