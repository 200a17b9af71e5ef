import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { baseDeploymentEnv, baseObjects, find, ROOT, type Container } from './manifests';
import { startApp, type AppProcess } from './processes';
import { APPS, createTestDatabase, SERVICES, testRedisUrl, type App, type Service } from './sources';

/**
 * Each deployable as its image runs it: bundled by scripts/bundle.mjs, copied into a clean folder outside the
 * repository (so nothing resolves from the workspace's node_modules), given only the packages of its generated
 * package.json (`npm install --omit=dev`, as docker/Dockerfile's deps stage does), started with only the variables
 * the manifests provide, against real PostgreSQL and Redis. One npm install serves every app whose generated
 * package.json is identical (today all four): the install proves the manifest is enough, doing it four times
 * would prove nothing more and cost a minute on a 2-core machine. `--prefer-offline` uses npm's cache when warm.
 */

const run = promisify(execFile);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A keep-alive agent: a real client's connection outlives one request, which is what graceful shutdown must handle. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function call(method: string, url: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent, headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...opts.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const probesOf = (app: App): Container => find(baseObjects(), 'Deployment', app)!.spec!.template!.spec.containers[0];
const migrationNames = (service: Service) =>
  readdirSync(path.join(ROOT, 'prisma', service, 'migrations'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe('bundled deployables', () => {
  let work: string;
  const dir = (app: App) => path.join(work, app);
  const databases: Partial<Record<Service, { url: string; drop(): Promise<void> }>> = {};
  const processes: AppProcess[] = [];
  const internalToken = randomBytes(24).toString('hex');
  const adminKey = `ak-${randomBytes(32).toString('hex')}`;
  const kek = () => randomBytes(32).toString('base64');
  /** Each service's own KEY_ENCRYPTION_KEY, the same for every process of the service (one key ring). */
  const keks: Record<Service, string> = { registry: kek(), verdict: kek(), ledger: kek() };
  let registry: AppProcess;
  let verdict: AppProcess;
  let ledgers: AppProcess[] = [];
  let worker: AppProcess;

  /** What the Secrets of k8s/README.md would hold in this test. */
  const secrets = (): Record<string, string> => ({
    REDIS_URL: testRedisUrl(),
    INTERNAL_TOKEN: internalToken,
    DATABASE_URL_REGISTRY: databases.registry!.url,
    DATABASE_URL_VERDICT: databases.verdict!.url,
    DATABASE_URL_LEDGER: databases.ledger!.url,
    BOOTSTRAP_ADMIN_KEY: adminKey,
  });
  /** The base Deployment's environment, with a loopback address and a free port instead of 0.0.0.0:<port>. */
  const envOf = (app: App, overrides: Record<string, string> = {}) =>
    baseDeploymentEnv(
      app,
      { ...secrets(), ...(app === 'worker' ? {} : { KEY_ENCRYPTION_KEY: keks[app] }) },
      { ...(app === 'worker' ? { HOST: '127.0.0.1', METRICS_PORT: '0' } : { HOST: '127.0.0.1', PORT: '0' }), ...overrides },
    );

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'arbiter-deploy-'));
    const build = path.join(work, 'build');
    const [, ...dbs] = await Promise.all([
      run(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs'), '--out-dir', build], { cwd: ROOT }),
      ...SERVICES.map((s) => createTestDatabase(`deploy_${s}`)),
    ]);
    SERVICES.forEach((s, i) => (databases[s] = dbs[i]));
    const installed = new Map<string, string>();
    for (const app of APPS) {
      cpSync(path.join(build, app), dir(app), { recursive: true });
      const manifest = readFileSync(path.join(dir(app), 'package.json'));
      const hash = createHash('sha256').update(manifest).digest('hex');
      const done = installed.get(hash);
      if (done) {
        cpSync(path.join(done, 'node_modules'), path.join(dir(app), 'node_modules'), { recursive: true });
      } else {
        await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir(app) });
        installed.set(hash, dir(app));
      }
    }
    rmSync(build, { recursive: true, force: true });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    agent.destroy();
    await Promise.all(Object.values(databases).map((d) => d.drop()));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs from a folder with no workspace node_modules above it', () => {
    for (let d = work; d !== path.dirname(d); d = path.dirname(d))
      expect(existsSync(path.join(path.dirname(d), 'node_modules'))).toBe(false);
  });

  it.each(APPS)('installs for %s only the packages its bundle leaves external', (app) => {
    const manifest = JSON.parse(readFileSync(path.join(dir(app), 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['express', 'swagger-ui-express']);
    expect(manifest.devDependencies).toBeUndefined();
    const installed = readdirSync(path.join(dir(app), 'node_modules'));
    // Bundled into main.js, so absent here.
    for (const bundled of ['pg', 'ioredis', 'bullmq', '@prisma', 'jose', 'pino', '@arbiter', 'esbuild', 'typescript']) {
      expect(installed).not.toContain(bundled);
    }
  });

  it.each(APPS)('holds in the %s folder every file the image, compose and Kubernetes run', (app) => {
    const files = readdirSync(dir(app));
    expect(files).toEqual(expect.arrayContaining(['main.js', 'healthcheck.js', 'package.json']));
    if ((SERVICES as readonly string[]).includes(app)) {
      expect(files).toEqual(expect.arrayContaining(['migrate.js', 'migrations']));
      expect(readdirSync(path.join(dir(app), 'migrations')).sort()).toEqual(migrationNames(app as Service));
    }
    if (existsSync(path.join(ROOT, 'apps', app, 'src', 'cli.ts'))) expect(files).toContain('cli.js');
  });

  it.each(SERVICES)('applies the %s migrations with migrate.js, and finds them current the second time', async (service) => {
    const env = { PATH: process.env.PATH!, ARBITER_SERVICE: service, [`DATABASE_URL_${service.toUpperCase()}`]: databases[service]!.url };
    const first = await run(process.execPath, ['migrate.js'], { cwd: dir(service), env });
    expect(JSON.parse(first.stdout)).toMatchObject({ msg: 'migrations applied', applied: migrationNames(service) });
    const second = await run(process.execPath, ['migrate.js'], { cwd: dir(service), env });
    expect(JSON.parse(second.stdout)).toMatchObject({ msg: 'migrations current', applied: [] });
  });

  it('refuses to migrate without a database URL, naming the variable', async () => {
    const failed = await run(process.execPath, ['migrate.js', 'ledger'], { cwd: dir('ledger'), env: { PATH: process.env.PATH! } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL_LEDGER is required') });
  });

  describe('started with exactly the environment of its Deployment', () => {
    beforeAll(async () => {
      registry = await startApp(dir('registry'), envOf('registry'), 'listening');
      processes.push(registry);
      const registryUrl = { REGISTRY_URL: registry.url! };
      // Two ledger processes on one database and Redis (one key ring, so one KEY_ENCRYPTION_KEY); the second verifies
      // what the first acknowledged. The load test below must not be rate limited.
      const ledgerEnv = envOf('ledger', { ...registryUrl, RATE_LIMIT_BURST: '100000', RATE_LIMIT_PER_MINUTE: '1000000' });
      [verdict, ...ledgers] = await Promise.all([
        startApp(dir('verdict'), envOf('verdict', registryUrl), 'listening'),
        startApp(dir('ledger'), ledgerEnv, 'listening'),
        startApp(dir('ledger'), ledgerEnv, 'listening'),
      ]);
      processes.push(verdict, ...ledgers);
      // Its own queue prefix: other test files' workers share this Redis and must not take each other's jobs.
      worker = await startApp(
        dir('worker'),
        envOf('worker', { ...registryUrl, QUEUE_PREFIX: `deploy${randomBytes(4).toString('hex')}` }),
        'worker started',
      );
      processes.push(worker);
    }, 120_000);

    it.each(SERVICES)('answers on %s the probes its Deployment declares, with 200', async (service) => {
      const proc = { registry, verdict, ledger: ledgers[0] }[service];
      const c = probesOf(service);
      const paths = [c.startupProbe, c.livenessProbe, c.readinessProbe].map((p) => p!.httpGet!.path);
      expect(paths).toEqual(['/livez', '/livez', '/readyz']);
      for (const p of paths) {
        const answer = await call('GET', `${proc.url}${p}`);
        expect({ path: p, status: answer.status }).toEqual({ path: p, status: 200 });
      }
    });

    it.each(SERVICES)('passes the image healthcheck of %s', async (service) => {
      const proc = { registry, verdict, ledger: ledgers[0] }[service];
      const { port } = new URL(proc.url!);
      await expect(
        run(process.execPath, ['healthcheck.js'], {
          cwd: dir(service),
          env: { PATH: process.env.PATH!, ARBITER_SERVICE: service, PORT: port },
        }),
      ).resolves.toBeDefined();
    });

    it('passes the worker image healthcheck while its Redis answers, and fails it when Redis is away', async () => {
      const env = { PATH: process.env.PATH!, ARBITER_SERVICE: 'worker', REDIS_URL: testRedisUrl() };
      expect(probesOf('worker').readinessProbe!.httpGet!.path).toBe('/readyz');
      await expect(run(process.execPath, ['healthcheck.js'], { cwd: dir('worker'), env })).resolves.toBeDefined();
      const down = await run(process.execPath, ['healthcheck.js'], {
        cwd: dir('worker'),
        env: { ...env, REDIS_URL: 'redis://127.0.0.1:1' },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(down).toMatchObject({ code: 1, stderr: expect.stringContaining('unhealthy') });
    });

    it.each(SERVICES)('serves Prometheus metrics on %s with requests counted by route', async (service) => {
      const proc = { registry, verdict, ledger: ledgers[0] }[service];
      await call('GET', `${proc.url}/readyz`);
      const metrics = await call('GET', `${proc.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(new RegExp(`arbiter_http_requests_total\\{[^}]*route="/readyz"[^}]*service="${service}"`));
    });

    it.each(SERVICES)(
      'runs `node cli.js keys reencrypt` of %s against its database: every stored key already under its key',
      async (service) => {
        const env = {
          PATH: process.env.PATH!,
          [`DATABASE_URL_${service.toUpperCase()}`]: databases[service]!.url,
          KEY_ENCRYPTION_KEY: keks[service],
        };
        const { stdout } = await run(process.execPath, ['cli.js', 'keys', 'reencrypt'], { cwd: dir(service), env });
        const result = JSON.parse(stdout);
        expect(result).toMatchObject({ reencrypted: [], alreadyCurrent: result.keys });
        // The registry and the ledger make their first key at start; the verdict gateway at a tenant's first signature.
        if (service !== 'verdict') expect(result.keys).toBeGreaterThanOrEqual(1);
        const wrong = await run(process.execPath, ['cli.js', 'keys', 'reencrypt'], {
          cwd: dir(service),
          env: { ...env, KEY_ENCRYPTION_KEY: kek() },
        }).catch((e: { code: number; stderr: string }) => e);
        if (service !== 'verdict')
          expect(wrong).toMatchObject({ code: 1, stderr: expect.stringContaining('KEY_ENCRYPTION_KEY_PREVIOUS opens') });
      },
    );

    it('loses no acknowledged seal when the ledger gets SIGTERM under load', async () => {
      const admin = { Authorization: `Bearer ${adminKey}` };
      const slug = `deploy-${randomBytes(4).toString('hex')}`;
      const tenant = JSON.parse(
        (await call('POST', `${registry.url}/api/v1/tenants`, { body: { name: slug, slug }, headers: admin })).body,
      );
      const principal = JSON.parse(
        (
          await call('POST', `${registry.url}/api/v1/principals`, {
            body: { kind: 'agent', name: 'sealer', tenant_id: tenant.id },
            headers: admin,
          })
        ).body,
      );
      const key = JSON.parse(
        (
          await call('POST', `${registry.url}/api/v1/api-keys`, {
            body: { principal_id: principal.id, permissions: ['seal', 'read'], tenant_id: tenant.id },
            headers: admin,
          })
        ).body,
      ).key as string;
      const [target, witness] = ledgers;
      const stream = 'sigterm-under-load';
      const acknowledged: string[] = [];
      let sent = 0;
      let terminated: Promise<number | null> | undefined;

      // Six clients seal one after another on keep-alive connections until the server stops answering them.
      const client = async (n: number) => {
        for (;;) {
          const ref = `c${n}-${sent++}`;
          let answer: Answer;
          try {
            answer = await call('POST', `${target.url}/streams/${stream}/facts`, {
              headers: { 'X-API-Key': key },
              body: { tenant_id: tenant.id, actor: `client-${n}`, custom_payload: { ref }, client_ref: ref },
            });
          } catch {
            return; // refused or reset: never acknowledged
          }
          if (answer.status !== 201 && answer.status !== 200) throw new Error(`seal answered ${answer.status}: ${answer.body}`);
          acknowledged.push(JSON.parse(answer.body).fact_id);
          if (acknowledged.length === 40) terminated = target.stop();
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, n) => client(n)));

      expect(await terminated).toBe(0);
      expect(target.output()).toContain('"msg":"stopped"');
      expect(acknowledged.length).toBeGreaterThanOrEqual(40);
      const listed = JSON.parse(
        (await call('GET', `${witness.url}/streams/${stream}/facts?limit=1000`, { headers: { 'X-API-Key': key } })).body,
      );
      const stored = new Set<string>(listed.facts.map((f: { fact_id: string }) => f.fact_id));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      const verified = JSON.parse(
        (await call('POST', `${witness.url}/streams/${stream}/verify`, { headers: { 'X-API-Key': key }, body: {} })).body,
      );
      expect(verified).toMatchObject({ valid: true });
    }, 60_000);

    it('stops every process on SIGTERM with exit status 0', async () => {
      const running = processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
      expect(running.length).toBeGreaterThanOrEqual(4);
      const codes = await Promise.all(running.map((p) => p.stop()));
      expect(codes).toEqual(running.map(() => 0));
    }, 60_000);
  });
});
