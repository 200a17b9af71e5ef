// The one way the end-to-end tests start services (docs/development.md "Test conventions"): startStack
// takes what to start (the registry always; the verdict gateway, the ledger, workers) and in which
// environment (variables for every service or one, another Redis, a counting proxy in front of the
// registry, a port that survives a restart), and wires them as a deployment does: each service on a
// fresh database, over real HTTP, PostgreSQL and Redis.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { findFreePort } from '@arbiter/devstack';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testPool, testRedisUrl } from '@arbiter/testing';
import { startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import type { RegistryDeps } from '../../apps/registry/src/context';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';
import { loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker';

export type Env = Record<string, string>;
/** Changes to an environment: a variable given as undefined is removed. */
export type EnvChanges = Record<string, string | undefined>;

export interface ServiceSpec {
  /** This service's variables (over the stack's `env`). */
  env?: EnvChanges;
  /**
   * Listen on a port reserved before anything starts: the URL survives `restart`, and the registry is
   * given the verdict gateway's URL (VERDICT_URL, for shadow rule reports) as in a deployment.
   */
  stablePort?: boolean;
  /** Reach the registry through the stack's counting, switchable proxy (`stack.proxy`). */
  registryProxy?: boolean;
}

export interface StackSpec {
  /** The registry is always started: its variables, and `deps` replacing some of its I/O (e.g. DNS answers). */
  registry?: { env?: Env; deps?: RegistryDeps };
  verdict?: boolean | ServiceSpec;
  ledger?: boolean | ServiceSpec;
  /** In-process workers started with the stack (more with `addWorker`): true for one. */
  worker?: boolean | { count?: number; env?: EnvChanges };
  /** Variables of every service and worker (e.g. a rotated INTERNAL_TOKEN). */
  env?: EnvChanges;
  /** Another Redis than the test run's (a test that stops and starts Redis). */
  redisUrl?: string;
  /**
   * Keep every log line of every service and worker, at debug level, in `stack.logs` (a test that reads what the
   * services logged); otherwise they log nothing.
   */
  logs?: boolean;
}

type Service = 'verdict' | 'ledger';
type Running = { verdict: RunningVerdict; ledger: RunningLedger };

export interface Stack {
  readonly registry: RegistryHarness;
  /** The verdict gateway (throws when the stack has none, or while it is stopped). */
  readonly verdict: RunningVerdict;
  /** The ledger (throws when the stack has none, or while it is stopped). */
  readonly ledger: RunningLedger;
  /** The proxy between the registry and the services started with `registryProxy` (throws when none asked for it). */
  readonly proxy: RegistryProxy;
  /** The in-process workers started so far. */
  readonly workers: readonly RunningWorker[];
  /** With `logs: true`, every line the services and workers logged so far (pino JSON); empty otherwise. */
  readonly logs: readonly string[];
  readonly redisUrl: string;
  /**
   * The environment a service or worker of this stack runs with (with PORT 0: a copy listens elsewhere),
   * for replicas, CLIs and spawned processes.
   */
  env(of: Service | 'worker'): Env;
  databaseUrl(service: Service | 'registry'): string;
  /** A superuser pool on a service's database (tests tampering with stored rows), closed by `stop`. */
  db(service: Service | 'registry'): Pool;
  /** One more instance of a service on its database (or a fresh one) and environment; stopped by `stop` unless closed before. */
  startReplica<S extends Service>(service: S, opts?: { env?: EnvChanges; freshDatabase?: boolean }): Promise<Running[S]>;
  /** Stops a service started with `stablePort`; `restart` starts it again on the same URL, database and keys. */
  halt(service: Service): Promise<void>;
  restart(service: Service): Promise<void>;
  /** One more in-process worker on the stack's queues; `env` changes its variables. */
  addWorker(env?: EnvChanges): Promise<RunningWorker>;
  /** Runs `fn` when the stack stops, before its services stop (receivers, fakes, servers of a test). */
  onStop(fn: () => Promise<unknown> | unknown): void;
  stop(): Promise<void>;
}

/** The dead URL a worker is given for a service the stack does not run (its relays log that they cannot reach it). */
const NOWHERE = 'http://127.0.0.1:9';

export async function startStack(spec: StackSpec = {}): Promise<Stack> {
  const redisUrl = spec.redisUrl ?? testRedisUrl();
  const specOf = (s: Service): ServiceSpec | undefined => (spec[s] ? (spec[s] === true ? {} : (spec[s] as ServiceSpec)) : undefined);
  const services = { verdict: specOf('verdict'), ledger: specOf('ledger') };
  const ports = {
    verdict: services.verdict?.stablePort ? await findFreePort() : undefined,
    ledger: services.ledger?.stablePort ? await findFreePort() : undefined,
  };
  const urlOf = (port: number) => `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const sink = { write: (line: string) => void logs.push(line) };
  const loggerOf = (service: string) => (spec.logs ? createLogger(service, 'debug', sink) : createLogger(service, 'silent'));

  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const stopHooks: Array<() => Promise<unknown> | unknown> = [];
  const running: Partial<Running> = {};
  const replicas = new Set<{ close(): Promise<void> }>();
  const workers: RunningWorker[] = [];
  const pools = new Map<string, Pool>();
  const envs: Partial<Record<Service, Env>> = {};
  let proxy: RegistryProxy | undefined;
  let workerEnv: Env = {};

  const stop = async () => {
    for (const fn of stopHooks.splice(0).reverse()) await fn();
    await Promise.all(workers.splice(0).map((w) => w.close()));
    await Promise.all([...replicas].map((r) => r.close()));
    await running.verdict?.close();
    await running.ledger?.close();
    running.verdict = running.ledger = undefined;
    await proxy?.close();
    await Promise.all([...pools.values()].map((p) => p.end()));
    pools.clear();
    await Promise.all(cleanups.splice(0).map((fn) => fn()));
  };

  try {
    const registry = await startTestRegistry(
      applyEnv({ REDIS_URL: redisUrl, ...(ports.verdict ? { VERDICT_URL: urlOf(ports.verdict) } : {}) }, spec.env, spec.registry?.env),
      spec.registry?.deps,
      loggerOf('registry'),
    );
    cleanups.push(() => registry.stop());
    if (services.verdict?.registryProxy || services.ledger?.registryProxy) proxy = await startRegistryProxy(registry.url);

    const baseEnv = async (service: Service, databaseName: string): Promise<Env> => {
      const db = await createTestDatabase(databaseName);
      cleanups.push(() => db.drop());
      return {
        PORT: '0',
        REDIS_URL: redisUrl,
        REGISTRY_URL: services[service]?.registryProxy ? proxy!.url : registry.url,
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
        [service === 'verdict' ? 'DATABASE_URL_VERDICT' : 'DATABASE_URL_LEDGER']: db.url,
        KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      };
    };
    const launch = <S extends Service>(service: S, env: Env): Promise<Running[S]> =>
      (service === 'verdict'
        ? startVerdict(loadVerdictConfig(env), loggerOf('verdict'))
        : startLedger(loadLedgerConfig(env), loggerOf('ledger'))) as Promise<Running[S]>;
    const portEnv = (service: Service): EnvChanges => (ports[service] ? { PORT: String(ports[service]), HOST: '127.0.0.1' } : {});

    // The ledger first: the verdict gateway reads its consultations' evidence from it (LEDGER_URL).
    if (services.ledger) {
      envs.ledger = applyEnv(await baseEnv('ledger', 'ledger'), spec.env, services.ledger.env);
      running.ledger = await launch('ledger', applyEnv(envs.ledger, portEnv('ledger')));
    }
    const ledgerUrl = running.ledger?.url;
    if (services.verdict) {
      envs.verdict = applyEnv(
        await baseEnv('verdict', 'verdict'),
        ledgerUrl ? { LEDGER_URL: ledgerUrl } : {},
        spec.env,
        services.verdict.env,
      );
      running.verdict = await launch('verdict', applyEnv(envs.verdict, portEnv('verdict')));
    }
    workerEnv = applyEnv(
      {
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: `arbiter-e2e-${randomUUID()}`,
        REGISTRY_URL: registry.url,
        VERDICT_URL: running.verdict?.url ?? NOWHERE,
        LEDGER_URL: ledgerUrl ?? NOWHERE,
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
        RELAY_INTERVAL_MS: '50',
      },
      spec.env,
      typeof spec.worker === 'object' ? spec.worker.env : undefined,
    );

    const need = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) throw new Error(`this stack has no ${what} (startStack's spec did not ask for it, or it is halted)`);
      return value;
    };
    const stack: Stack = {
      registry,
      get verdict() {
        return need(running.verdict, 'verdict gateway');
      },
      get ledger() {
        return need(running.ledger, 'ledger');
      },
      get proxy() {
        return need(proxy, 'registry proxy');
      },
      workers,
      logs,
      redisUrl,
      env: (of) => ({ ...(of === 'worker' ? workerEnv : need(envs[of], of)) }),
      databaseUrl: (service) =>
        service === 'registry'
          ? registry.databaseUrl
          : need(envs[service], service)[service === 'verdict' ? 'DATABASE_URL_VERDICT' : 'DATABASE_URL_LEDGER'],
      db(service) {
        let pool = pools.get(service);
        if (!pool) pools.set(service, (pool = testPool(stack.databaseUrl(service), 2)));
        return pool;
      },
      async startReplica(service, opts = {}) {
        let env: Env = need<Env>(envs[service], service);
        if (opts.freshDatabase) {
          const db = await createTestDatabase(service);
          cleanups.push(() => db.drop());
          env = { ...env, [service === 'verdict' ? 'DATABASE_URL_VERDICT' : 'DATABASE_URL_LEDGER']: db.url };
        }
        const replica = await launch(service, applyEnv(env, opts.env));
        replica.close = closeOnce(replica.close.bind(replica), () => replicas.delete(replica));
        replicas.add(replica);
        return replica;
      },
      async halt(service) {
        if (!ports[service]) throw new Error(`halt('${service}') needs { stablePort: true }: a restart must keep the URL the others know`);
        await need(running[service], service).close();
        running[service] = undefined;
      },
      async restart(service) {
        if (running[service]) throw new Error(`${service} is running`);
        (running as Record<Service, unknown>)[service] = await launch(service, applyEnv(need(envs[service], service), portEnv(service)));
      },
      async addWorker(env) {
        const worker = await startWorker(loadWorkerConfig(applyEnv(workerEnv, env)), loggerOf('worker'));
        worker.close = closeOnce(worker.close.bind(worker), () => {
          if (workers.includes(worker)) workers.splice(workers.indexOf(worker), 1);
        });
        workers.push(worker);
        return worker;
      },
      onStop: (fn) => void stopHooks.push(fn),
      stop,
    };
    const count = spec.worker ? (spec.worker === true ? 1 : (spec.worker.count ?? 1)) : 0;
    for (let i = 0; i < count; i++) await stack.addWorker();
    return stack;
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** `base` with each set of changes applied in turn (a variable given as undefined is removed). */
function applyEnv(base: Env, ...changes: Array<EnvChanges | undefined>): Env {
  const env: Env = { ...base };
  for (const change of changes) {
    for (const [name, value] of Object.entries(change ?? {})) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }
  return env;
}

/** A close() that runs once (the test's or the stack's, whichever comes first). */
function closeOnce(close: () => Promise<void>, then: () => void): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close().finally(then);
    return closing;
  };
}

/**
 * Forwards to the registry, counting requests by path (and noting the service token each carried); `down` makes it drop every connection, and
 * `rewrite` (when set) may replace the body of a 200 answer (it gets the path and the body text).
 */
export interface RegistryProxy {
  url: string;
  requests: string[];
  /** The X-Internal-Token of each request, in order (undefined when absent). */
  tokens: Array<string | undefined>;
  down: boolean;
  rewrite: ((path: string, body: string) => string) | null;
  /** When it answers true for a request (method and path), the request reaches the registry but its answer is dropped. */
  loseAnswer: ((method: string, path: string) => boolean) | null;
  close(): Promise<void>;
}

async function startRegistryProxy(target: string): Promise<RegistryProxy> {
  const to = new URL(target);
  const proxy: RegistryProxy = {
    url: '',
    requests: [],
    tokens: [],
    down: false,
    rewrite: null,
    loseAnswer: null,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    if (proxy.down) {
      req.socket.destroy();
      return;
    }
    proxy.requests.push(`${req.method} ${req.url}`);
    proxy.tokens.push(req.headers['x-internal-token'] as string | undefined);
    const upstream = http.request(
      { hostname: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        if (proxy.loseAnswer?.(req.method ?? '', req.url ?? '')) {
          up.resume();
          up.on('end', () => res.destroy());
          return;
        }
        const rewrite = proxy.rewrite;
        if (!rewrite || up.statusCode !== 200) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        let text = '';
        up.setEncoding('utf8');
        up.on('data', (c: string) => (text += c));
        up.on('end', () => {
          const body = rewrite(req.url ?? '', text);
          res.writeHead(200, { ...up.headers, 'content-length': String(Buffer.byteLength(body)) });
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
