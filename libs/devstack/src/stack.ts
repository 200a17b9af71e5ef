import { pathToFileURL } from 'node:url';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DevstackError } from './errors';
import { isPortFree } from './ports';
import { databaseUrl, ensureDatabases, PostgresHandle, startPostgres } from './postgres';
import { isStartedLine, showInQuietMode } from './app-output';
import {
  forwardLines,
  hasExited,
  isOwnerAlive,
  isProcessAlive,
  LogTail,
  processCommandLine,
  stopOnExit,
  terminate,
  waitUntilGone,
} from './processes';
import { RedisHandle, startRedis } from './redis';
import { LoadedSecrets, loadOrCreateSecrets } from './secrets';

/**
 * The embedded default of README.md "Configuration": one PostgreSQL (three databases), one Redis, the three services and
 * the worker, each service awaited on GET /readyz. External servers replace the embedded ones through
 * DATABASE_URL_<SERVICE> and REDIS_URL.
 */

export interface AppSpec {
  name: string;
  /** The bundled entry (dist/apps/<name>/main.js). */
  entry: string;
  /** HTTP port; undefined for a process without an HTTP API (the worker), which is not awaited. */
  port?: number;
}

/** Each service's database and the variable that points it elsewhere. */
export const DATABASES = [
  { service: 'registry', variable: 'DATABASE_URL_REGISTRY', database: 'arbiter_registry' },
  { service: 'verdict', variable: 'DATABASE_URL_VERDICT', database: 'arbiter_verdict' },
  { service: 'ledger', variable: 'DATABASE_URL_LEDGER', database: 'arbiter_ledger' },
] as const;

const DEFAULT_APPS = [
  { name: 'registry', portVariable: 'REGISTRY_PORT', port: 3001 },
  { name: 'verdict', portVariable: 'VERDICT_PORT', port: 3002 },
  { name: 'ledger', portVariable: 'LEDGER_PORT', port: 3003 },
  { name: 'worker' },
] as const;

function parsePort(value: string | undefined, variable: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new DevstackError('invalid_config', `${variable} must be a TCP port number (1-65535), got "${value}"`);
  }
  return port;
}

/**
 * The apps `npm start` runs, from `<root>/dist/apps/<name>/main.js`, with ports from REGISTRY_PORT, VERDICT_PORT and
 * LEDGER_PORT. ARBITER_START_APPS (comma-separated names) runs a subset.
 */
export function defaultApps(root: string, env: NodeJS.ProcessEnv = process.env): AppSpec[] {
  const only = env.ARBITER_START_APPS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return DEFAULT_APPS.filter((app) => !only || only.includes(app.name)).map((app) => ({
    name: app.name,
    entry: path.join(root, 'dist', 'apps', app.name, 'main.js'),
    port: 'portVariable' in app ? parsePort(env[app.portVariable], app.portVariable, app.port) : undefined,
  }));
}

export type StackLog = (source: string, line: string) => void;

export interface StackOptions {
  /** Holds pg/, redis/ and secrets.json (`<repo>/.data`). */
  dataDir: string;
  apps: AppSpec[];
  /** The user's environment: its values win over generated ones. Default process.env. */
  env?: NodeJS.ProcessEnv;
  log?: StackLog;
  /** Per service. Default 60 s. */
  readyTimeoutMs?: number;
  /** How long a child gets after SIGTERM before SIGKILL. Default 10 s. */
  stopGraceMs?: number;
  /** Passed to startPostgres: false only for throwaway clusters (tests). Default true. */
  durable?: boolean;
  /**
   * Pass everything PostgreSQL, Redis and the apps print to `log` (ARBITER_SERVER_LOGS=1). Otherwise `log` gets one
   * line per component when it is ready, the apps' errors, and the last lines of whatever fails (app-output.ts).
   */
  serverLogs?: boolean;
  /** Aborts a start in progress (Ctrl-C while waiting for readiness). */
  signal?: AbortSignal;
}

export interface AppExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningStack {
  /** Base URL of each HTTP service. */
  urls: Record<string, string>;
  secrets: LoadedSecrets;
  /** The environment every child got (before its own PORT). */
  childEnv: NodeJS.ProcessEnv;
  postgres?: PostgresHandle;
  redis?: RedisHandle;
  children: Map<string, ChildProcess>;
  /** Resolves when a child exits while the stack is not stopping. */
  unexpectedExit: Promise<AppExit>;
  /** The last lines an app printed (shown when it dies: a quiet start has not shown them). */
  lastOutput(name: string): string;
  /** SIGTERM to every child (SIGKILL after the grace period), then Redis and PostgreSQL. Idempotent. */
  stop(): Promise<void>;
}

/** The host to reach a service on: a wildcard bind address is reached through loopback. */
export function reachableHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function isReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status === 200;
  } catch {
    return false;
  }
}

function abortError(): DevstackError {
  return new DevstackError('aborted', 'start aborted');
}

async function waitForReady(name: string, url: string, child: ChildProcess, timeoutMs: number, signal?: AbortSignal) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) throw abortError();
    if (hasExited(child)) {
      throw new DevstackError(
        'service_exited',
        `${name} exited before it was ready (exit code ${child.exitCode}, signal ${child.signalCode}); see its output above`,
      );
    }
    if (await isReady(url)) return;
    if (Date.now() > deadline) {
      throw new DevstackError(
        'service_not_ready',
        `${name} did not answer 200 on ${url}/readyz within ${Math.round(timeoutMs / 1000)} s; see its output above`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a running stack records in `<dataDir>/run.json`, so the next start can clean up after a killed one. */
interface RunRecord {
  ownerPid: number;
  apps: Array<{ name: string; pid: number; entry: string }>;
}

function runRecordFile(dataDir: string): string {
  return path.join(dataDir, 'run.json');
}

/**
 * Apps of an earlier run whose orchestrator was killed (SIGKILL, so no cleanup ran) keep running and hold their
 * ports: stop them. A run whose orchestrator is still alive is a concurrent `npm start` on the same data: refuse.
 */
async function stopOrphanedApps(dataDir: string, log: StackLog, graceMs: number): Promise<void> {
  let record: RunRecord;
  try {
    record = JSON.parse(fs.readFileSync(runRecordFile(dataDir), 'utf8')) as RunRecord;
  } catch {
    return;
  }
  if (record.ownerPid !== process.pid && isOwnerAlive(record.ownerPid)) {
    throw new DevstackError('already_running', `another "npm start" (pid ${record.ownerPid}) is running on ${dataDir}; stop it first`);
  }
  for (const app of record.apps) {
    const argv = isProcessAlive(app.pid) ? processCommandLine(app.pid) : undefined;
    if (!argv?.includes(app.entry)) continue;
    log('stack', `stopping ${app.name} (pid ${app.pid}) left running by a killed run`);
    process.kill(app.pid, 'SIGTERM');
    if (!(await waitUntilGone(app.pid, graceMs))) process.kill(app.pid, 'SIGKILL');
  }
  fs.rmSync(runRecordFile(dataDir), { force: true });
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const env = options.env ?? process.env;
  const log: StackLog = options.log ?? (() => undefined);
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const host = env.HOST || '127.0.0.1';
  const probeHost = reachableHost(host);

  fs.mkdirSync(options.dataDir, { recursive: true });
  await stopOrphanedApps(options.dataDir, log, stopGraceMs);
  for (const app of options.apps) {
    if (!fs.existsSync(app.entry)) {
      throw new DevstackError('app_not_built', `${app.entry} does not exist; build it first (node scripts/bundle.mjs)`);
    }
    if (app.port !== undefined && !(await isPortFree(app.port, host))) {
      throw new DevstackError(
        'port_in_use',
        `port ${app.port} for ${app.name} is in use (is another "npm start" still running?); ` +
          `free it or set ${app.name.toUpperCase()}_PORT`,
      );
    }
  }

  const appPorts = options.apps.flatMap((app) => (app.port === undefined ? [] : [app.port]));
  const secrets = loadOrCreateSecrets(path.join(options.dataDir, 'secrets.json'), env);
  let postgres: PostgresHandle | undefined;
  let redis: RedisHandle | undefined;
  const children = new Map<string, ChildProcess>();
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      await Promise.all([...children.values()].map((child) => terminate(child, 'SIGTERM', stopGraceMs)));
      fs.rmSync(runRecordFile(options.dataDir), { force: true });
      await Promise.all([redis?.stop(), postgres?.stop()]);
    })());

  try {
    const databaseUrls: Record<string, string> = {};
    const missing = DATABASES.filter((db) => !env[db.variable]);
    for (const db of DATABASES) if (env[db.variable]) databaseUrls[db.variable] = env[db.variable]!;
    if (missing.length > 0) {
      const pgDir = path.join(options.dataDir, 'pg');
      postgres = await startPostgres({
        dataDir: pgDir,
        port: env.PGPORT ? parsePort(env.PGPORT, 'PGPORT', 0) : undefined,
        avoidPorts: appPorts,
        log: (line) => log('postgres', line),
        serverLog: options.serverLogs ? (line) => log('postgres', line) : undefined,
        detached: true,
        durable: options.durable,
      });
      await ensureDatabases(
        postgres.url,
        missing.map((db) => db.database),
      );
      const at = new URL(postgres.url);
      log('postgres', `ready on ${at.hostname}:${at.port}, data in ${shownPath(pgDir)}`);
      for (const db of missing) databaseUrls[db.variable] = databaseUrl(postgres.url, db.database);
    }
    if (options.signal?.aborted) throw abortError();

    let redisUrl = env.REDIS_URL;
    if (!redisUrl) {
      redis = await startRedis({
        dir: path.join(options.dataDir, 'redis'),
        avoidPorts: appPorts,
        log: (line) => log('redis', line),
        serverLog: options.serverLogs ? (line) => log('redis', line) : undefined,
        detached: true,
      });
      redisUrl = redis.url;
      log('redis', `ready on 127.0.0.1:${redis.port}`);
    }
    if (options.signal?.aborted) throw abortError();

    const registryPort = options.apps.find((app) => app.name === 'registry')?.port ?? parsePort(env.REGISTRY_PORT, 'REGISTRY_PORT', 3001);
    // The worker's seal relay reaches the verdict gateway and the ledger on their internal APIs (docs/operations.md "Seal relay");
    // the registry reads shadow rule counts from the verdict gateway's (VERDICT_URL, docs/verdicts.md "Shadow rules").
    const verdictPort = options.apps.find((app) => app.name === 'verdict')?.port ?? parsePort(env.VERDICT_PORT, 'VERDICT_PORT', 3002);
    const ledgerPort = options.apps.find((app) => app.name === 'ledger')?.port ?? parsePort(env.LEDGER_PORT, 'LEDGER_PORT', 3003);
    const childEnv: NodeJS.ProcessEnv = {
      ...env,
      HOST: host,
      ...databaseUrls,
      REDIS_URL: redisUrl,
      ...secrets.secrets,
      REGISTRY_URL: env.REGISTRY_URL || `http://${probeHost}:${registryPort}`,
      VERDICT_URL: env.VERDICT_URL || `http://${probeHost}:${verdictPort}`,
      LEDGER_URL: env.LEDGER_URL || `http://${probeHost}:${ledgerPort}`,
      WEBHOOK_ALLOW_PRIVATE: env.WEBHOOK_ALLOW_PRIVATE || 'true',
      // Archive segments in the data folder (docs/operations.md "Archive"): the worker writes, the gateway reads.
      ARCHIVE_URL: env.ARCHIVE_URL || pathToFileURL(path.join(path.resolve(options.dataDir), 'archive')).href,
    };

    const tails = new Map<string, LogTail>();
    let reportExit: (exit: AppExit) => void = () => undefined;
    const unexpectedExit = new Promise<AppExit>((resolve) => (reportExit = resolve));
    for (const app of options.apps) {
      const appEnv = { ...childEnv };
      if (app.port !== undefined) appEnv.PORT = String(app.port);
      else delete appEnv.PORT;
      const child = spawn(process.execPath, ['--enable-source-maps', app.entry], {
        env: appEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Own process group: a terminal's Ctrl-C reaches only the orchestrator, which then sends exactly one SIGTERM
        // (the apps treat a second signal as "exit now", which would skip their graceful drain).
        detached: true,
      });
      children.set(app.name, child);
      const removeExitHook = stopOnExit(child, 'SIGTERM');
      child.once('exit', removeExitHook);
      const tail = new LogTail();
      tails.set(app.name, tail);
      forwardLines([child.stdout, child.stderr], (line) => {
        tail.push(line);
        if (options.serverLogs || showInQuietMode(line)) log(app.name, line);
        // A process without an HTTP port has no probe: its "<name> started" record is its ready line.
        if (app.port === undefined && isStartedLine(app.name, line)) log(app.name, 'ready');
      });
      child.once('error', (err) => log(app.name, `could not start: ${err.message}`));
      child.once('exit', (code, signal) => {
        if (!stopping) reportExit({ name: app.name, code, signal });
      });
    }

    const record: RunRecord = {
      ownerPid: process.pid,
      apps: options.apps.map((app) => ({ name: app.name, pid: children.get(app.name)!.pid!, entry: app.entry })),
    };
    fs.writeFileSync(runRecordFile(options.dataDir), JSON.stringify(record));

    const urls: Record<string, string> = {};
    for (const app of options.apps) if (app.port !== undefined) urls[app.name] = `http://${probeHost}:${app.port}`;
    const lastOutput = (name: string) => tails.get(name)?.toString() ?? '';
    await Promise.all(
      options.apps
        .filter((app) => app.port !== undefined)
        .map(async (app) => {
          try {
            await waitForReady(app.name, urls[app.name]!, children.get(app.name)!, options.readyTimeoutMs ?? 60_000, options.signal);
          } catch (err) {
            if (!options.serverLogs && !(err instanceof DevstackError && err.code === 'aborted')) {
              for (const line of lastOutput(app.name).split('\n')) if (line) log(app.name, line);
            }
            throw err;
          }
          log(app.name, `ready at ${urls[app.name]}`);
        }),
    );
    return { urls, secrets, childEnv, postgres, redis, children, unexpectedExit, lastOutput, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function shownPath(p: string): string {
  const relative = path.relative(process.cwd(), p);
  return relative.startsWith('..') || path.isAbsolute(relative) ? p : relative;
}

/** The file `npm start` writes its URLs to, in the data directory (docs/cli.md "Configuration"). */
export const STACK_FILE = 'stack.env';

/**
 * `<dataDir>/stack.env`: `ARBITER_<SERVICE>_URL=<url>` of each running service, where the CLI, the MCP proxy and
 * the examples look for their stack (after flags, the environment and the quickstart file). Nothing secret: what the
 * banner prints besides the admin key. Replaced whole (a temporary file renamed over it); left in place at stop,
 * so a command run while the stack is down names the URL it could not reach.
 */
export function writeStackFile(dataDir: string, urls: Record<string, string>): string {
  const file = path.join(dataDir, STACK_FILE);
  const lines = [
    '# Written by npm start: the URLs of its services. arbiter, its MCP proxy and the examples read this file',
    '# after their flags, the environment and .data/quickstart.env (docs/cli.md "Configuration").',
    ...Object.entries(urls).map(([name, url]) => `ARBITER_${name.toUpperCase()}_URL=${url}`),
  ];
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${lines.join('\n')}\n`);
  fs.renameSync(tmp, file);
  return file;
}

/** What `npm start` prints once every service is ready. */
export function formatBanner(
  stack: Pick<RunningStack, 'urls' | 'secrets'>,
  secretsFile: string,
  stackFile?: string,
  consoleLink?: { url: string } | { error: string },
): string {
  const key = stack.secrets.secrets.BOOTSTRAP_ADMIN_KEY;
  const keySource = stack.secrets.sources.BOOTSTRAP_ADMIN_KEY === 'env' ? 'from BOOTSTRAP_ADMIN_KEY' : `stored in ${secretsFile}`;
  const width = Math.max(...Object.keys(stack.urls).map((name) => name.length), 9);
  const lines = ['', 'Arbiter is running:'];
  for (const [name, url] of Object.entries(stack.urls)) {
    lines.push(`  ${name.padEnd(width)}  ${url}   docs: ${url}/docs`);
  }
  lines.push(`  ${'admin key'.padEnd(width)}  ${key}   (${keySource})`);
  if (consoleLink && 'url' in consoleLink) {
    lines.push(`  ${'console'.padEnd(width)}  ${consoleLink.url}   (sign in as the admin: one use, 10 minutes)`);
  } else if (consoleLink) {
    lines.push(`  ${'console'.padEnd(width)}  no sign-in link (${consoleLink.error})`);
  }
  const registry = stack.urls.registry ?? 'http://127.0.0.1:3001';
  lines.push('', 'Try:', `  curl -H "Authorization: Bearer ${key}" ${registry}/api/v1/tenants`);
  if (stackFile) {
    // The CLI's first steps (README "Quick start"): it finds this stack through the stack file.
    lines.push(`  URLs written to ${stackFile}, where arbiter finds them. A demo tenant and a first check, in another terminal:`);
    lines.push('  npm install -g ./apps/cli        # once: arbiter on the PATH');
    lines.push(`  ARBITER_ADMIN_KEY=${key} arbiter quickstart`);
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
