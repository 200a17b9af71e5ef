import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPOSE_FILE, DEPLOYMENT_REQUIRED, interpolations, readCompose, ROOT, seconds, type ComposeService } from './manifests';
import { APPS, CLOSE_HOOKS_MS, envVarsOf, SERVICES, type App } from './sources';

/**
 * docker/compose.yaml, checked statically (no container engine here): every image buildable, every path present,
 * every required variable provided, secrets only from docker/.env, migrations before the apps, two replicas of
 * verdict and ledger behind the load balancer.
 */

const DOCKER_DIR = path.dirname(COMPOSE_FILE);
const compose = readCompose();
const services = compose.services;

/** The compose service running each app. */
const appService = (app: App): ComposeService => services[app];

/** Variables the operator must put in docker/.env: listed in .env.example (with no value). */
const envExample = new Map(
  readFileSync(path.join(DOCKER_DIR, '.env.example'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
);

const haproxyCfg = readFileSync(path.join(DOCKER_DIR, 'haproxy', 'haproxy.cfg'), 'utf8');

describe('docker/compose.yaml', () => {
  it('starts PostgreSQL, Redis, the three services, the worker and a load balancer', () => {
    for (const name of ['postgres', 'redis', ...APPS, 'lb']) expect(services[name]).toBeDefined();
  });

  it.each(APPS)('builds %s from docker/Dockerfile with APP set to it', (app) => {
    const s = appService(app);
    expect(s.build?.args?.APP).toBe(app);
    const context = path.resolve(DOCKER_DIR, s.build!.context);
    expect(context).toBe(ROOT);
    expect(existsSync(path.join(context, s.build!.dockerfile!))).toBe(true);
    expect(existsSync(path.join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
    expect(s.image).toMatch(new RegExp(`^arbiter/${app}:`));
  });

  it('pins a tag on every image it pulls', () => {
    for (const [name, s] of Object.entries(services)) {
      if (s.build) continue;
      expect({ name, image: s.image }).toEqual({ name, image: expect.stringMatching(/^[a-z0-9./-]+:(?!latest$)[\w.-]+$/) });
    }
  });

  it('mounts only files that exist', () => {
    for (const s of Object.values(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.')) expect(existsSync(path.resolve(DOCKER_DIR, source))).toBe(true);
        else expect(compose.volumes).toHaveProperty(source);
      }
    }
  });

  it.each(APPS)('provides every variable %s requires and only variables it reads', (app) => {
    const env = appService(app).environment ?? {};
    const schema = envVarsOf(app);
    const required = [...schema.filter((v) => v.required).map((v) => v.name), ...DEPLOYMENT_REQUIRED[app]];
    expect(required.filter((name) => env[name] === undefined)).toEqual([]);
    const known = new Set(schema.map((v) => v.name));
    expect(Object.keys(env).filter((n) => !known.has(n))).toEqual([]);
  });

  it('takes every secret from docker/.env, never from a value in the file', () => {
    // Redis on the compose network has no password: its URL names the compose service and holds no secret.
    const plain = new Set(['REDIS_URL']);
    const secretNames = new Set(
      APPS.flatMap((a) =>
        envVarsOf(a)
          .filter((v) => v.secret && !plain.has(v.name))
          .map((v) => v.name),
      ),
    );
    for (const [name, s] of Object.entries(services)) {
      for (const [variable, value] of Object.entries(s.environment ?? {})) {
        if (!secretNames.has(variable)) continue;
        const fromEnvFile = interpolations(String(value)).some((r) => !r.hasDefault);
        expect({ service: name, variable, fromEnvFile }).toEqual({ service: name, variable, fromEnvFile: true });
      }
    }
    for (const app of APPS) expect(appService(app).environment!.REDIS_URL).toBe('redis://redis:6379');
  });

  it('lists every variable it needs from docker/.env in .env.example, with no value', () => {
    const text = readFileSync(COMPOSE_FILE, 'utf8');
    const needed = new Set(
      interpolations(text)
        .filter((r) => !r.hasDefault)
        .map((r) => r.name),
    );
    for (const name of needed) expect({ name, listed: envExample.has(name) }).toEqual({ name, listed: true });
    for (const [name, value] of envExample) expect({ name, value }).toEqual({ name, value: '' });
  });

  it.each(SERVICES)('migrates the %s database in a one-shot service before the service starts', (service) => {
    const migrate = services[`migrate-${service}`];
    expect(migrate.command).toEqual(['node', 'migrate.js']);
    expect(migrate.build?.args?.APP).toBe(service);
    expect(Object.keys(migrate.environment ?? {})).toEqual([`DATABASE_URL_${service.toUpperCase()}`]);
    expect(migrate.environment![`DATABASE_URL_${service.toUpperCase()}`]).toBe(
      appService(service).environment![`DATABASE_URL_${service.toUpperCase()}`],
    );
    expect(migrate.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(appService(service).depends_on?.[`migrate-${service}`]?.condition).toBe('service_completed_successfully');
  });

  it('creates the database each service connects to', () => {
    const init = readFileSync(path.join(DOCKER_DIR, 'postgres', 'init-databases.sql'), 'utf8');
    for (const service of SERVICES) {
      const url = String(appService(service).environment![`DATABASE_URL_${service.toUpperCase()}`]);
      const database = url.slice(url.lastIndexOf('/') + 1);
      expect(init).toContain(`CREATE DATABASE ${database};`);
    }
  });

  it('runs two replicas each of verdict and ledger, balanced by haproxy on their ports', () => {
    for (const [service, port] of [
      ['verdict', 3002],
      ['ledger', 3003],
    ] as const) {
      const replicas = appService(service).deploy?.replicas ?? 1;
      expect(replicas).toBeGreaterThanOrEqual(2);
      expect(appService(service).ports).toBeUndefined();
      const template = new RegExp(`server-template ${service} (\\d+) ${service}:${port}`).exec(haproxyCfg);
      expect(Number(template?.[1])).toBeGreaterThanOrEqual(replicas);
      expect(services.lb.ports).toContainEqual(expect.stringMatching(new RegExp(`:${port}$`)));
    }
    expect(haproxyCfg).toContain('http-check send meth GET uri /readyz');
  });

  it('publishes no service port directly, so /internal/v1 and /metrics stay on the compose network', () => {
    for (const app of APPS) expect(appService(app).ports).toBeUndefined();
    expect(haproxyCfg).toMatch(/http-request deny .* if \{ path_beg \/internal\/ \}/);
    expect(haproxyCfg).toMatch(/http-request deny .* if \{ path \/metrics \}/);
  });

  it('points the services at one another by compose service name', () => {
    for (const app of ['verdict', 'ledger', 'worker'] as const)
      expect(appService(app).environment!.REGISTRY_URL).toBe('http://registry:3001');
    for (const service of SERVICES) expect(appService(service).environment!.HOST).toBe('0.0.0.0');
  });

  it('gives each process time to finish in-flight work before it is killed', () => {
    for (const app of APPS) {
      const s = appService(app);
      const grace = Number(s.environment!.SHUTDOWN_GRACE_MS) / 1000 + CLOSE_HOOKS_MS / 1000;
      expect({ app, enough: seconds(s.stop_grace_period!) >= grace }).toEqual({ app, enough: true });
    }
  });

  const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
  if (!haproxy)
    console.warn('tools/deploy/compose.spec.ts: haproxy is not on the PATH; its configuration is not validated (apt-get install haproxy).');
  (haproxy ? it : it.skip)('has a configuration haproxy accepts', () => {
    const check = spawnSync('haproxy', ['-c', '-f', path.join(DOCKER_DIR, 'haproxy', 'haproxy.cfg')], { encoding: 'utf8' });
    expect({ status: check.status, alerts: check.stderr.split('\n').filter((l) => l.includes('[ALERT]')) }).toEqual({
      status: 0,
      alerts: [],
    });
  });
});
