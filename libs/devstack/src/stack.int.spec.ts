import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { eventually } from '@arbiter/testing';
import { DevstackError } from './errors';
import { findFreePort } from './ports';
import { isProcessAlive, processCommandLine } from './processes';
import { pingRedis } from './redis';
import { AppSpec, defaultApps, formatBanner, RunningStack, startStack } from './stack';

// Each test starts real servers (initdb alone takes about a second); Jest's project-level testTimeout is ignored
// when running from the root config, so the default of 5 s would apply on a busy machine.
jest.setTimeout(60_000);

// The real apps are bundles built from apps/*/src/main.ts; these tests run the orchestration with small fake apps
// that serve /readyz and record what they were given.

interface FakeBehaviour {
  /** 503 on /readyz for this many requests before answering 200. */
  notReadyFor?: number;
  /** Exit with this code at start. */
  exitAtStart?: number;
  /** Never answer 200. */
  neverReady?: boolean;
  /** Log records of these levels at start, as the real apps do (pino JSON lines). */
  logLevels?: number[];
}

const FAKE_APP = `
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const behaviour = JSON.parse(fs.readFileSync(path.join(__dirname, 'behaviour.json'), 'utf8'));
const out = path.join(__dirname, 'out');
fs.mkdirSync(out, { recursive: true });
process.on('SIGTERM', () => {
  fs.writeFileSync(path.join(out, 'sigterm'), '');
  process.exit(0);
});
fs.writeFileSync(path.join(out, 'env.json'), JSON.stringify(process.env));
for (const level of behaviour.logLevels || []) console.log(JSON.stringify({ level, msg: 'record at level ' + level }));
if (behaviour.exitAtStart !== undefined) process.exit(behaviour.exitAtStart);
let probes = 0;
const server = process.env.PORT
  ? http.createServer((req, res) => {
      if (req.url !== '/readyz') return res.writeHead(404).end();
      probes += 1;
      const ready = !behaviour.neverReady && probes > (behaviour.notReadyFor || 0);
      if (ready) fs.writeFileSync(path.join(out, 'ready'), '');
      res.writeHead(ready ? 200 : 503).end();
    }).listen(Number(process.env.PORT), process.env.HOST)
  : setInterval(() => {}, 1000);
console.log(JSON.stringify({ level: 30, msg: process.env.PORT ? 'listening' : path.basename(__dirname) + ' started' }));
fs.writeFileSync(path.join(out, 'started'), '');
`;

function writeFakeApp(root: string, name: string, behaviour: FakeBehaviour = {}): string {
  const dir = path.join(root, 'dist', 'apps', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'main.js'), FAKE_APP);
  fs.writeFileSync(path.join(dir, 'behaviour.json'), JSON.stringify(behaviour));
  return path.join(dir, 'main.js');
}

function recordedEnv(root: string, name: string): NodeJS.ProcessEnv {
  return JSON.parse(fs.readFileSync(path.join(root, 'dist', 'apps', name, 'out', 'env.json'), 'utf8'));
}

/**
 * The worker has no readiness probe, so the stack does not wait for it: on a loaded machine its process may not have
 * written what it recorded yet when start() returns. Wait for the file.
 */
const written = (file: string) =>
  eventually(`${path.basename(path.dirname(path.dirname(file)))} to write ${path.basename(file)}`, () => fs.existsSync(file), {
    timeoutMs: 10_000,
  });

function outFile(root: string, name: string, file: string): string {
  return path.join(root, 'dist', 'apps', name, 'out', file);
}

/** Pids of the processes whose command line names `entry` (Linux /proc). */
function processesRunning(entry: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => processCommandLine(Number(pid))?.includes(entry))
    .map(Number);
}

async function querySingle(url: string, sql: string): Promise<unknown> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    return rows[0] ? Object.values(rows[0] as object)[0] : undefined;
  } finally {
    await client.end();
  }
}

/** A user environment with nothing of ours in it, so the test run's own variables do not leak in. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return { ...env, ...extra };
}

/**
 * Points the stack at the test run's servers, for tests about the apps' lifecycle: no embedded PostgreSQL and Redis
 * to start (initdb alone takes a second).
 */
function externalServersEnv(): NodeJS.ProcessEnv {
  // Read directly rather than through @arbiter/testing, whose global setup depends on this library.
  const pg = process.env.ARBITER_TEST_PG_URL;
  const redis = process.env.ARBITER_TEST_REDIS_URL;
  if (!pg || !redis) throw new Error('run from the repository root: the Jest global setup provides the test servers');
  return cleanEnv({ DATABASE_URL_REGISTRY: pg, DATABASE_URL_VERDICT: pg, DATABASE_URL_LEDGER: pg, REDIS_URL: redis });
}

describe(startStack.name, () => {
  let root: string;
  let dataDir: string;
  const running: RunningStack[] = [];

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-stack-'));
    // As root, PostgreSQL runs as the postgres OS user, which must traverse to .data/pg.
    fs.chmodSync(root, 0o755);
    dataDir = path.join(root, '.data');
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((stack) => stack.stop()));
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function apps(behaviours: Record<string, FakeBehaviour> = {}): Promise<AppSpec[]> {
    const specs: AppSpec[] = [];
    for (const name of ['registry', 'verdict', 'worker']) {
      const chosen = specs.flatMap((spec) => (spec.port === undefined ? [] : [spec.port]));
      specs.push({
        name,
        entry: writeFakeApp(root, name, behaviours[name]),
        port: name === 'worker' ? undefined : await findFreePort('127.0.0.1', chosen),
      });
    }
    return specs;
  }

  async function start(options: Partial<Parameters<typeof startStack>[0]> & { apps: AppSpec[] }): Promise<RunningStack> {
    const sut = await startStack({ dataDir, env: cleanEnv(), stopGraceMs: 5000, durable: false, ...options });
    running.push(sut);
    return sut;
  }

  it('starts PostgreSQL, Redis and every app with the documented environment, and awaits readiness', async () => {
    const specs = await apps();

    const sut = await start({ apps: specs });

    const registryPort = specs[0]!.port!;
    const registry = recordedEnv(root, 'registry');
    await written(outFile(root, 'worker', 'started'));
    const worker = recordedEnv(root, 'worker');
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(registry).toMatchObject({
      HOST: '127.0.0.1',
      PORT: String(registryPort),
      REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      INTERNAL_TOKEN: secrets.INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: secrets.KEY_ENCRYPTION_KEY,
      BOOTSTRAP_ADMIN_KEY: secrets.BOOTSTRAP_ADMIN_KEY,
      REDIS_URL: sut.redis!.url,
    });
    expect(recordedEnv(root, 'verdict').PORT).toBe(String(specs[1]!.port));
    expect(worker.PORT).toBeUndefined();
    expect(worker.REDIS_URL).toBe(sut.redis!.url);
    // The seal relay's owners and ledger: the verdict gateway's port, and the ledger's default (not started here).
    expect(worker).toMatchObject({
      REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
      VERDICT_URL: `http://127.0.0.1:${specs[1]!.port}`,
      LEDGER_URL: 'http://127.0.0.1:3003',
    });
    for (const [variable, database] of [
      ['DATABASE_URL_REGISTRY', 'arbiter_registry'],
      ['DATABASE_URL_VERDICT', 'arbiter_verdict'],
      ['DATABASE_URL_LEDGER', 'arbiter_ledger'],
    ] as const) {
      expect(await querySingle(registry[variable]!, 'SELECT current_database()')).toBe(database);
    }
    expect(await pingRedis(sut.redis!.port)).toBe(true);
    expect(fs.existsSync(outFile(root, 'registry', 'ready'))).toBe(true);
    expect(fs.existsSync(outFile(root, 'verdict', 'ready'))).toBe(true);
    expect(sut.urls).toEqual({ registry: `http://127.0.0.1:${registryPort}`, verdict: `http://127.0.0.1:${specs[1]!.port}` });
  });

  it("without serverLogs, says when each component is ready and shows only the apps' errors", async () => {
    const lines: Array<[string, string]> = [];
    const specs = await apps({ registry: { logLevels: [30, 40, 50, 60] } });

    await start({ apps: specs, log: (source, line) => lines.push([source, line]) });
    await written(outFile(root, 'worker', 'started'));
    await eventually('a line of the worker', () => lines.some(([source]) => source === 'worker'), { timeoutMs: 10_000 });

    expect(lines).toContainEqual(['postgres', expect.stringMatching(/^ready on 127\.0\.0\.1:\d+, data in /)]);
    expect(lines).toContainEqual(['redis', expect.stringMatching(/^ready on 127\.0\.0\.1:\d+$/)]);
    expect(lines).toContainEqual(['registry', `ready at http://127.0.0.1:${specs[0]!.port}`]);
    expect(lines).toContainEqual(['verdict', `ready at http://127.0.0.1:${specs[1]!.port}`]);
    expect(lines).toContainEqual(['worker', 'ready']);
    const ofApps = lines.filter(([source]) => ['registry', 'verdict', 'worker'].includes(source)).map(([, line]) => line);
    expect(ofApps.filter((line) => line.startsWith('{'))).toEqual([
      JSON.stringify({ level: 50, msg: 'record at level 50' }),
      JSON.stringify({ level: 60, msg: 'record at level 60' }),
    ]);
  });

  it('with serverLogs, passes every line the apps print', async () => {
    const lines: Array<[string, string]> = [];
    const specs = await apps({ registry: { logLevels: [30, 40] } });

    await start({ apps: specs, env: externalServersEnv(), serverLogs: true, log: (source, line) => lines.push([source, line]) });

    expect(lines).toContainEqual(['registry', JSON.stringify({ level: 30, msg: 'record at level 30' })]);
    expect(lines).toContainEqual(['registry', JSON.stringify({ level: 40, msg: 'record at level 40' })]);
    expect(lines).toContainEqual(['registry', JSON.stringify({ level: 30, msg: 'listening' })]);
  });

  it('shows the last lines of an app that dies before it is ready, though a quiet start hid them', async () => {
    const lines: Array<[string, string]> = [];
    const specs = await apps({ verdict: { logLevels: [30], exitAtStart: 3 } });

    const attempt = start({ apps: specs, env: externalServersEnv(), log: (source, line) => lines.push([source, line]) });

    await expect(attempt).rejects.toMatchObject({ code: 'service_exited' });
    expect(lines).toContainEqual(['verdict', JSON.stringify({ level: 30, msg: 'record at level 30' })]);
  });

  it('waits until /readyz answers 200 before resolving', async () => {
    const specs = await apps({ registry: { notReadyFor: 3 } });

    await start({ apps: specs, env: externalServersEnv() });

    expect(fs.existsSync(outFile(root, 'registry', 'ready'))).toBe(true);
  });

  it('reuses the generated secrets and the data on a second start', async () => {
    const first = await start({ apps: await apps() });
    const registryDb = recordedEnv(root, 'registry').DATABASE_URL_REGISTRY!;
    await querySingle(registryDb, 'CREATE TABLE kept (id int)');
    await first.stop();

    const sut = await start({ apps: await apps() });

    expect(sut.secrets.secrets).toEqual(first.secrets.secrets);
    expect(recordedEnv(root, 'registry').BOOTSTRAP_ADMIN_KEY).toBe(first.secrets.secrets.BOOTSTRAP_ADMIN_KEY);
    expect(await querySingle(recordedEnv(root, 'registry').DATABASE_URL_REGISTRY!, 'SELECT count(*)::int FROM kept')).toBe(0);
  });

  it('lets the environment override secrets, host, registry URL and the servers (no embedded ones then)', async () => {
    const adminKey = `ak-${'cd'.repeat(32)}`;
    const { DATABASE_URL_LEDGER: externalPg, REDIS_URL: externalRedis } = externalServersEnv();
    const env = cleanEnv({
      BOOTSTRAP_ADMIN_KEY: adminKey,
      INTERNAL_TOKEN: 'given-token',
      DATABASE_URL_REGISTRY: externalPg,
      DATABASE_URL_VERDICT: externalPg,
      DATABASE_URL_LEDGER: externalPg,
      REDIS_URL: externalRedis,
      HOST: '0.0.0.0',
      WEBHOOK_ALLOW_PRIVATE: 'false',
      LOG_LEVEL: 'debug',
    });

    const sut = await start({ apps: await apps(), env });

    const registry = recordedEnv(root, 'registry');
    expect(sut.postgres).toBeUndefined();
    expect(sut.redis).toBeUndefined();
    expect(registry).toMatchObject({
      BOOTSTRAP_ADMIN_KEY: adminKey,
      INTERNAL_TOKEN: 'given-token',
      DATABASE_URL_LEDGER: externalPg,
      REDIS_URL: externalRedis,
      HOST: '0.0.0.0',
      WEBHOOK_ALLOW_PRIVATE: 'false',
      LOG_LEVEL: 'debug',
    });
    expect(sut.secrets.sources.BOOTSTRAP_ADMIN_KEY).toBe('env');
    expect(formatBanner(sut, '.data/secrets.json')).toContain(
      `curl -H "Authorization: Bearer ${adminKey}" http://127.0.0.1:${registry.PORT}/api/v1/tenants`,
    );
  });

  it('stops every app with SIGTERM, then Redis and PostgreSQL', async () => {
    const sut = await start({ apps: await apps() });
    const pids = [...sut.children.values()].map((child) => child.pid!);
    // The worker has no /readyz to await: wait until it has installed its signal handler.
    await written(outFile(root, 'worker', 'started'));

    await sut.stop();

    for (const name of ['registry', 'verdict', 'worker']) {
      expect(fs.existsSync(outFile(root, name, 'sigterm'))).toBe(true);
    }
    for (const pid of [...pids, sut.redis!.pid, sut.postgres!.pid]) expect(isProcessAlive(pid)).toBe(false);
  });

  it('stops apps left running by an orchestrator that was killed, then starts normally', async () => {
    const killed = await start({ apps: await apps() });
    const orphans = [...killed.children.values()].map((child) => child.pid!);
    // What a SIGKILLed orchestrator leaves: its run record names a process that no longer exists.
    const runFile = path.join(dataDir, 'run.json');
    const record = JSON.parse(fs.readFileSync(runFile, 'utf8'));
    fs.writeFileSync(runFile, JSON.stringify({ ...record, ownerPid: spawnSync(process.execPath, ['-e', '0']).pid }));

    const sut = await start({ apps: await apps() });

    for (const pid of orphans) expect(isProcessAlive(pid)).toBe(false);
    expect(fs.existsSync(outFile(root, 'registry', 'sigterm'))).toBe(true);
    expect([...sut.children.values()].every((child) => child.exitCode === null)).toBe(true);
  });

  it('refuses with already_running while the orchestrator that owns the data directory is alive', async () => {
    await start({ apps: await apps(), env: externalServersEnv() });
    const runFile = path.join(dataDir, 'run.json');
    const record = JSON.parse(fs.readFileSync(runFile, 'utf8'));
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(runFile, JSON.stringify({ ...record, ownerPid: owner.pid }));

      const attempt = startStack({ dataDir, apps: await apps(), env: externalServersEnv() });

      await expect(attempt).rejects.toMatchObject({ code: 'already_running' });
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('reports an app that exits while running', async () => {
    const sut = await start({ apps: await apps(), env: externalServersEnv() });

    sut.children.get('verdict')!.kill('SIGKILL');

    await expect(sut.unexpectedExit).resolves.toEqual({ name: 'verdict', code: null, signal: 'SIGKILL' });
  });

  it('fails with service_exited naming an app that dies before it is ready, and stops the rest', async () => {
    const specs = await apps({ verdict: { exitAtStart: 3 } });

    const attempt = startStack({ dataDir, apps: specs, env: externalServersEnv() });

    await expect(attempt).rejects.toMatchObject({ code: 'service_exited', message: expect.stringContaining('verdict') });
    expect(processesRunning(specs[0]!.entry)).toEqual([]);
  });

  it('fails with service_not_ready naming an app that never answers 200', async () => {
    const specs = await apps({ registry: { neverReady: true } });

    const attempt = startStack({ dataDir, apps: specs, env: externalServersEnv(), readyTimeoutMs: 1000 });

    await expect(attempt).rejects.toMatchObject({ code: 'service_not_ready', message: expect.stringContaining('registry') });
  });

  it('refuses to start when an app port is taken', async () => {
    const first = await start({ apps: await apps(), env: externalServersEnv() });
    const specs = await apps();
    specs[0]!.port = Number(new URL(first.urls.registry!).port);

    const attempt = startStack({ dataDir: path.join(root, 'other'), apps: specs, env: externalServersEnv() });

    await expect(attempt).rejects.toBeInstanceOf(DevstackError);
    await expect(attempt).rejects.toMatchObject({ code: 'port_in_use', message: expect.stringContaining('registry') });
  });
});

describe(defaultApps.name, () => {
  it('lists the three services on their default ports and the worker, from dist/apps', () => {
    const sut = defaultApps('/repo', {});

    expect(sut).toEqual([
      { name: 'registry', entry: '/repo/dist/apps/registry/main.js', port: 3001 },
      { name: 'verdict', entry: '/repo/dist/apps/verdict/main.js', port: 3002 },
      { name: 'ledger', entry: '/repo/dist/apps/ledger/main.js', port: 3003 },
      { name: 'worker', entry: '/repo/dist/apps/worker/main.js', port: undefined },
    ]);
  });

  it('takes ports from REGISTRY_PORT, VERDICT_PORT, LEDGER_PORT and a subset from ARBITER_START_APPS', () => {
    const sut = defaultApps('/repo', { REGISTRY_PORT: '4001', LEDGER_PORT: '4003', ARBITER_START_APPS: 'registry, ledger' });

    expect(sut.map((app) => [app.name, app.port])).toEqual([
      ['registry', 4001],
      ['ledger', 4003],
    ]);
  });

  it('rejects a port that is not a number with invalid_config', () => {
    expect(() => defaultApps('/repo', { VERDICT_PORT: 'abc' })).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });
});
