// Shared pieces of the verdict benchmarks (bench/verdict/run.ts, bench/verdict/sealing.ts): services as
// processes, CPU accounting from /proc, the benchmark tenant made through the registry API.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { databaseUrl, ensureDatabases, findFreePort, startPostgres } from '@arbiter/devstack';
import type { EngineRule } from '@arbiter/policy';
import { benchmarkFixture, type BenchmarkFixture } from '@arbiter/testing/benchmark-fixture';
import type { LoadResult } from './loadgen';

export const log = (line: string) => process.stdout.write(`${line}\n`);

/** One process's user and system clock ticks (10 ms) and those of its exited children, from /proc/<pid>/stat. */
function procTicks(pid: number): { ppid: number; ticks: number; children: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
}

/**
 * Runs `measure` on a durable PostgreSQL of its own (libs/devstack, in a temporary folder removed afterwards) with one
 * database, `name`, through a pool of one connection that is never closed while idle, so that every statement runs on
 * the backend whose pid `measure` is given (its CPU is what the storage benches measure). The pool is ended and the
 * server stopped whatever happens.
 */
export async function withOneBackend(
  name: string,
  measure: (db: { url: string; pool: Pool; pid: number }) => Promise<void>,
  settings?: Record<string, string>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `arbiter-${name}-`));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings });
  try {
    await ensureDatabases(pg.url, [name]);
    const url = databaseUrl(pg.url, name);
    const pool = new Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0 });
    try {
      const pid = (await pool.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0].p;
      await measure({ url, pool, pid });
    } finally {
      await pool.end();
    }
  } finally {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU seconds used so far by one process (a PostgreSQL backend), without its children. */
export function processCpuSeconds(pid: number): number {
  return procTicks(pid).ticks / 100;
}

/**
 * CPU seconds used so far by a process and all its descendants (Linux /proc; clock ticks of 10 ms),
 * including descendants that have exited meanwhile (PostgreSQL's autovacuum workers come and go).
 */
export function treeCpuSeconds(root: number): number {
  const procs = new Map<number, { ppid: number; ticks: number; children: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      procs.set(Number(entry), procTicks(Number(entry)));
    } catch {
      /* exited meanwhile */
    }
  }
  let ticks = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    // cutime/cstime: the CPU of exited children this process has waited for.
    ticks += (procs.get(pid)?.ticks ?? 0) + (procs.get(pid)?.children ?? 0);
    for (const [child, p] of procs) if (p.ppid === pid) todo.push(child);
  }
  return ticks / 100;
}

/** WAL written so far by the whole cluster: bytes (`pg_current_wal_lsn()`), records and full-page images (`pg_stat_wal`). */
async function walPosition(url: string): Promise<{ lsn: string; records: number; fpi: number }> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(
      'SELECT pg_current_wal_lsn()::text AS lsn, wal_records::float8 AS records, wal_fpi::float8 AS fpi FROM pg_stat_wal',
    );
    return rows[0];
  } finally {
    await c.end();
  }
}

async function walSince(url: string, from: { lsn: string; records: number; fpi: number }) {
  const to = await walPosition(url);
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::float8 AS bytes', [to.lsn, from.lsn]);
    return { bytes: rows[0].bytes as number, records: to.records - from.records, fpi: to.fpi - from.fpi };
  } finally {
    await c.end();
  }
}

/**
 * Runs a load and adds the CPU it cost the server and PostgreSQL, per request (contention-independent). With
 * `walUrl` (a database of the cluster), also the WAL the cluster wrote meanwhile, per request: bytes, records and
 * full-page images (everything the cluster wrote, the group commits' and autovacuum's included). With `others`
 * (name → pid), also the CPU of those processes and their children, per request.
 */
export async function measured(
  server: ChildProcess,
  pgPid: number,
  run: () => Promise<LoadResult>,
  walUrl?: string,
  others: Record<string, number> = {},
) {
  const w0 = walUrl ? await walPosition(walUrl) : undefined;
  const s0 = treeCpuSeconds(server.pid!);
  const p0 = treeCpuSeconds(pgPid);
  const o0 = Object.fromEntries(Object.entries(others).map(([name, pid]) => [name, treeCpuSeconds(pid)]));
  const l0 = process.cpuUsage();
  const r = await run();
  const l = process.cpuUsage(l0);
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, r.requests));
  const server_cpu_us_per_request = perRequest(treeCpuSeconds(server.pid!) - s0);
  const postgres_cpu_us_per_request = perRequest(treeCpuSeconds(pgPid) - p0);
  /** The CPU of the other processes named in `others` (name → pid), per request. */
  const others_cpu_us_per_request = Object.fromEntries(
    Object.entries(others).map(([name, pid]) => [name, perRequest(treeCpuSeconds(pid) - o0[name])]),
  );
  const wal = walUrl && w0 ? await walSince(walUrl, w0) : undefined;
  const per = (n: number) => Math.round((n / Math.max(1, r.requests)) * 100) / 100;
  return {
    ...r,
    server_cpu_us_per_request,
    postgres_cpu_us_per_request,
    others_cpu_us_per_request,
    loadgen_cpu_us_per_request: perRequest((l.user + l.system) / 1e6),
    ...(wal
      ? {
          wal_bytes_per_request: Math.round(wal.bytes / Math.max(1, r.requests)),
          wal_records_per_request: per(wal.records),
          wal_fpi_per_request: per(wal.fpi),
        }
      : {}),
  };
}

export function machine() {
  return {
    nproc: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadavg_at_start: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export async function pgSettings(url: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method')`);
  await c.end();
  return Object.fromEntries(rows.map((r) => [r.name, r.setting])) as Record<string, string>;
}

/** What every service process of a benchmark shares: Redis, the service token, a fresh KEY_ENCRYPTION_KEY, quiet logs. */
export function serviceEnv(redisUrl: string, internalToken: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    REDIS_URL: redisUrl,
    INTERNAL_TOKEN: internalToken,
    KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  };
}

/** Stops the service processes, then the servers (PostgreSQL, Redis), then removes the benchmark's folder. */
export async function stopBench(children: ChildProcess[], servers: Array<{ stop(): Promise<void> }>, dir: string): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))));
  await Promise.allSettled(servers.map((s) => s.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Runs a bundled Node program on a free port; resolves with its URL once it answers HTTP. */
export async function startService(
  children: ChildProcess[],
  name: string,
  file: string,
  env: NodeJS.ProcessEnv,
  probe = '/livez',
): Promise<string> {
  const port = await findFreePort();
  const nodeArgs = (process.env[`BENCH_NODE_OPTIONS_${name.toUpperCase()}`] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, file], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const answered = await fetch(probe.startsWith('http') ? probe : `${url}${probe}`).then(
      () => true,
      () => false,
    );
    if (answered) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer within 30 s`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of the registry, read by field
export async function api(url: string, method: string, pathname: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(new URL(pathname, url), {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A fixture rule as the registry's rule body (enum requirements name no values there: typed as strings). */
export function ruleBody(rule: EngineRule) {
  return {
    directive: rule.statement,
    severity: rule.severity,
    ...(rule.verdict ? { verdict: rule.verdict } : {}),
    ...(rule.applies_to ? { applies_to: rule.applies_to } : {}),
    conditions: rule.conditions,
    condition_mode: rule.condition_mode,
    requires: (rule.requires ?? []).map((r) => ({ ...r, type: r.type === 'enum' ? 'string' : r.type })),
    deciders: (rule.deciders ?? []).map((d) => (d.startsWith('hum-') ? `role-${d.slice(4)}` : d)),
    ...(rule.priority !== undefined && rule.priority !== null ? { priority: rule.priority } : {}),
  };
}

/** A tenant holding the fixture's n rules (and its overrides in effect), made through the registry API. */
export async function benchTenant(registry: string, adminKey: string, n: number, settings: Record<string, unknown> = {}) {
  const fixture: BenchmarkFixture = benchmarkFixture(n);
  const auth = { Authorization: `Bearer ${adminKey}` };
  const tenant = await api(registry, 'POST', '/api/v1/tenants', auth, {
    name: `bench ${n}`,
    slug: `bench-${n}-${Date.now()}`,
    settings: {
      scope_schema: {
        fields: {
          region: { allowed_values: ['eu', 'us', 'apac'] },
          env: { allowed_values: ['prod', 'staging'] },
          business_unit: { allowed_values: ['retail', 'corporate', 'treasury'] },
        },
      },
      default_verdict: 'allowed',
      ...settings,
    },
  });
  const principal = await api(registry, 'POST', '/api/v1/principals', auth, { kind: 'agent', name: 'bench', tenant_id: tenant.id });
  const key = await api(registry, 'POST', '/api/v1/api-keys', auth, {
    principal_id: principal.id,
    permissions: ['check'],
    tenant_id: tenant.id,
  });
  const adminPrincipal = await api(registry, 'POST', '/api/v1/principals', auth, {
    kind: 'human',
    name: 'bench-admin',
    tenant_id: tenant.id,
  });
  const admin = await api(registry, 'POST', '/api/v1/api-keys', auth, {
    principal_id: adminPrincipal.id,
    permissions: ['admin'],
    tenant_id: tenant.id,
  });
  const tenantAuth = { Authorization: `Bearer ${admin.key}` };

  const scopes = new Map<string, string>();
  const scopeFor = async (selector: Record<string, unknown>) => {
    const k = JSON.stringify(Object.entries(selector).sort());
    if (!scopes.has(k))
      scopes.set(k, (await api(registry, 'POST', '/api/v1/scopes', tenantAuth, { name: `s${scopes.size}`, selector })).id);
    return scopes.get(k)!;
  };
  const ruleIds = new Map<string, { id: string; scope: string }>();
  for (const rule of fixture.rules) await scopeFor(rule.selector);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < fixture.rules.length) {
        const rule = fixture.rules[next++];
        const scope = await scopeFor(rule.selector);
        const made = await api(registry, 'POST', `/api/v1/scopes/${scope}/rules`, tenantAuth, ruleBody(rule));
        ruleIds.set(rule.rule_id, { id: made.id, scope });
      }
    }),
  );
  for (const o of fixture.overrides) {
    if (o.expires_at && Date.parse(o.expires_at) <= fixture.now) continue; // expired in the fixture: left out
    const target = ruleIds.get(o.target_rule_ids[0])!;
    await api(registry, 'POST', `/api/v1/scopes/${target.scope}/overrides`, tenantAuth, {
      target_id: target.id,
      override_type: 'temporary',
      justification: 'benchmark',
      applies_to_scope: o.applies_to_scope,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
  }
  const bodies = fixture.requests.map((r) =>
    JSON.stringify({ action: r.action, resource: r.resource, scope: r.scope, parameters: r.parameters, context: r.context }),
  );
  return { id: tenant.id as string, key: key.key as string, principalId: principal.id as string, adminKey: admin.key as string, bodies };
}

/** Every body must give a complete verdict (200) before the load runs. */
export async function preflight(verdict: string, t: { id: string; key: string; bodies: string[] }) {
  let requestBytes = 0;
  let responseBytes = 0;
  for (const body of t.bodies) {
    const res = await fetch(`${verdict}/${t.id}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.key },
      body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`preflight: ${res.status} ${text}`);
    requestBytes += Buffer.byteLength(body);
    responseBytes += Buffer.byteLength(text);
  }
  const mean = (bytes: number) => Math.round(bytes / t.bodies.length);
  log(`  ${t.bodies.length} distinct requests, mean body ${mean(requestBytes)} bytes, mean answer ${mean(responseBytes)} bytes`);
}
