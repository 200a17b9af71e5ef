// The simulation benchmark: 100,000 stored consultations replayed through
// POST /<tenant_id>/v1/simulations in under 10 s. Run it with `node bench/verdict/simulation.mjs`.
// See docs/benchmarks.md "Simulation".
//
// The registry and the verdict gateway run as separate processes on a durable PostgreSQL and a Redis.
// The tenant holds the 100-rule fixture of the Verdict section; each of the fixture's check requests
// is checked once through HTTP (real records, hashed and signed), then those records are copied by SQL,
// with new ids and requested_at spread over the last six days, up to --consultations rows. The
// simulation (a new MANDATORY rule, an update and an archive) is then timed end to end over HTTP,
// with the verdict process's resident memory sampled every 20 ms.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { databaseUrl, ensureDatabases, startPostgres, startRedis } from '@arbiter/devstack';
import { api, benchTenant, log, machine, pgSettings, preflight, startService, treeCpuSeconds } from './harness';

const ROOT = path.resolve(__dirname, '../../..');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const CONSULTATIONS = Number(option('--consultations') ?? 100_000);
const ROUNDS = Number(option('--rounds') ?? 3);
const RULES = Number(option('--rules') ?? 100);
const JSON_OUT = option('--json');
const TARGET_SECONDS = 10;
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';

const results: Record<string, unknown> = {};

/** Resident memory of a process (kB): current and the high-water mark since it started. */
function memory(pid: number): { rss_kb: number; hwm_kb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss_kb: kb('VmRSS'), hwm_kb: kb('VmHWM') };
}

/** Copies the stored records by SQL until the tenant has `total` consultations, spread over six days. */
async function fill(url: string, tenantId: string, total: number): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM consultations WHERE tenant_id = $1', [tenantId]);
    const missing = total - rows[0].n;
    if (missing > 0) {
      await c.query(
        `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, dominating_rule_id, record)
         SELECT 'cns-' || substr(md5(random()::text || g::text), 1, 24), s.tenant_id, s.caller_principal_id,
                now() - make_interval(secs => 10 + (g::float8 / $2) * 6 * 86400), s.action, s.verdict, s.dominating_rule_id, s.record
           FROM generate_series(1, $2::int) AS g
           JOIN (SELECT row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS n, * FROM consultations WHERE tenant_id = $1) s
             ON s.k = g % s.n`,
        [tenantId, missing],
      );
      await c.query('ANALYZE consultations');
    }
    const { rows: after } = await c.query<{ n: number; bytes: string }>(
      'SELECT count(*)::int AS n, pg_size_pretty(sum(pg_column_size(record))) AS bytes FROM consultations WHERE tenant_id = $1',
      [tenantId],
    );
    results.stored = after[0];
    return after[0].n;
  } finally {
    await c.end();
  }
}

async function simulate(verdict: string, tenantId: string, key: string, body: unknown, pid: number, pgPid: number) {
  let peak = memory(pid).rss_kb;
  const before = memory(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, memory(pid).rss_kb)), 20);
  const cpu0 = treeCpuSeconds(pid);
  const pgCpu0 = treeCpuSeconds(pgPid);
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${verdict}/${tenantId}/v1/simulations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(sampler);
  if (res.status !== 200) throw new Error(`simulation: ${res.status} ${text}`);
  const answer = JSON.parse(text) as { evaluated: number; changed: number; transitions: Record<string, number> };
  return {
    seconds: Math.round(seconds * 1000) / 1000,
    evaluated: answer.evaluated,
    changed: answer.changed,
    transitions: answer.transitions,
    replays_per_second: Math.round(answer.evaluated / seconds),
    verdict_cpu_seconds: Math.round((treeCpuSeconds(pid) - cpu0) * 100) / 100,
    postgres_cpu_seconds: Math.round((treeCpuSeconds(pgPid) - pgCpu0) * 100) / 100,
    rss_before_mb: Math.round(before.rss_kb / 1024),
    rss_peak_mb: Math.round(peak / 1024),
    rss_delta_mb: Math.round((peak - before.rss_kb) / 1024),
  };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-simulation-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const children: ChildProcess[] = [];
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_connections: '100' } });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  try {
    results.machine = machine();
    results.postgres = await pgSettings(pg.url);
    log(`machine: ${JSON.stringify(results.machine)}`);
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_verdict']);
    const adminKey = generateApiKey();
    const env = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    };
    const registry = await startService(children, 'registry', path.join(ROOT, 'dist/apps/registry/main.js'), {
      ...env,
      DATABASE_URL_REGISTRY: databaseUrl(pg.url, 'arbiter_registry'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
    });
    const verdictDb = databaseUrl(pg.url, 'arbiter_verdict');
    const verdict = await startService(children, 'verdict', path.join(ROOT, 'dist/apps/verdict/main.js'), {
      ...env,
      DATABASE_URL_VERDICT: verdictDb,
      REGISTRY_URL: registry,
      LEDGER_SEALING: 'false',
    });
    const verdictPid = children[children.length - 1].pid!;

    const tenant = await benchTenant(registry, adminKey, RULES, {
      rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 },
    });
    const auth = { Authorization: `Bearer ${adminKey}` };
    const manager = await api(registry, 'POST', '/api/v1/api-keys', auth, {
      principal_id: tenant.principalId,
      permissions: ['manage_rules'],
      tenant_id: tenant.id,
    });
    await preflight(verdict, tenant); // one real check per fixture request: the records to copy
    const t0 = Date.now();
    const stored = await fill(verdictDb, tenant.id, CONSULTATIONS);
    log(`  ${stored} consultations stored (${JSON.stringify(results.stored)}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // The changes: a blocking rule on the busiest action, an update and an archive of two fixture rules.
    const c = new Client({ connectionString: verdictDb });
    await c.connect();
    const { rows: top } = await c.query<{ action: string; rule: string | null }>(
      `SELECT action, (array_agg(dominating_rule_id) FILTER (WHERE dominating_rule_id IS NOT NULL))[1] AS rule
         FROM consultations WHERE tenant_id = $1 GROUP BY action ORDER BY count(*) DESC LIMIT 2`,
      [tenant.id],
    );
    await c.end();
    const state = await fetch(`${registry}/internal/v1/tenants/${tenant.id}/state`, {
      headers: { 'x-internal-token': INTERNAL_TOKEN },
    }).then(
      (r) =>
        r.json() as Promise<{
          scopes: Array<{ id: string; selector: object }>;
          rules: Array<{ rule_id: string; directive: string; severity: string }>;
        }>,
    );
    const tenantScope = state.scopes.find((s) => Object.keys(s.selector).length === 0) ?? state.scopes[0];
    const dominating = top.map((t) => t.rule).filter((r): r is string => r !== null);
    const updated = state.rules.find((r) => r.rule_id === dominating[0]) ?? state.rules[0];
    const archived =
      state.rules.find((r) => r.rule_id === dominating[1] && r.rule_id !== updated.rule_id) ??
      state.rules.find((r) => r.rule_id !== updated.rule_id)!;
    const changes = [
      {
        op: 'create',
        rule: {
          scope_id: tenantScope.id,
          directive: 'Benchmark: block the busiest action',
          severity: 'MANDATORY',
          applies_to: { actions: [top[0].action] },
          conditions: [{ field: 'action', op: 'eq', value: top[0].action }],
        },
      },
      { op: 'update', rule_id: updated.rule_id, rule: { directive: `${updated.directive} (now advisory)`, severity: 'ADVISORY' } },
      { op: 'archive', rule_id: archived.rule_id },
    ];
    results.changes = changes;

    const runs: Array<Awaited<ReturnType<typeof simulate>> & { window: string }> = [];
    // The memory of a small window first: with pages, the peak should not grow with the window.
    const small = await simulate(verdict, tenant.id, manager.key, { changes, window: { last: 10_000 } }, verdictPid, pg.pid);
    runs.push({ window: 'last 10,000', ...small });
    log(`  last 10,000: ${JSON.stringify(small)}`);
    for (let i = 0; i < ROUNDS; i++) {
      const r = await simulate(verdict, tenant.id, manager.key, { changes }, verdictPid, pg.pid);
      if (r.evaluated !== stored) throw new Error(`evaluated ${r.evaluated} of ${stored}`);
      runs.push({ window: `all ${stored} (round ${i + 1})`, ...r });
      log(`  all ${stored}, round ${i + 1}: ${JSON.stringify(r)}`);
    }
    results.runs = runs;
    const full = runs
      .slice(1)
      .map((r) => r.seconds)
      .sort((a, b) => a - b);
    results.summary = {
      consultations: stored,
      median_seconds: full[Math.floor(full.length / 2)],
      best_seconds: full[0],
      target_seconds: TARGET_SECONDS,
      met: full[Math.floor(full.length / 2)] < TARGET_SECONDS,
      verdict_rss_high_water_mb: Math.round(memory(verdictPid).hwm_kb / 1024),
      loadavg_at_end: os.loadavg().map((x) => Math.round(x * 100) / 100),
    };
    log(`summary: ${JSON.stringify(results.summary)}`);
    if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))));
    await Promise.allSettled([pg.stop(), redis.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
