// The verdict benchmark (run it with `node bench/verdict/bench.mjs`). See docs/benchmarks.md "Verdict".
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { databaseUrl, ensureDatabases, startPostgres, startRedis } from '@arbiter/devstack';
import { budgetCases } from './budget';
import { compareEngines } from './engine-vs-cedar';
import { benchTenant, log, machine, measured, pgSettings, preflight, startService } from './harness';
import { runLoad, type LoadResult } from './loadgen';

const ROOT = path.resolve(__dirname, '../../..');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const SECONDS = QUICK ? 3 : 10;
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
/** --sizes 100 / --connections 64: a subset, for profiling (BENCH_NODE_OPTIONS_VERDICT="--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const SIZES = (option('--sizes') ?? '10,100,1000').split(',').map(Number);
const CONNECTIONS = (option('--connections') ?? '1,16,64').split(',').map(Number);
const SKIP_ENGINES = args.includes('--http-only') || args.includes('--checks-only');
/** --checks-only: the checks of one gateway alone (no engines, floor, replicas or whoami), for profiling it. */
const CHECKS_ONLY = args.includes('--checks-only');
/**
 * --soak [seconds]: one gateway under full load (100 rules, 64 connections) for that long (default 300), its
 * resident memory read at 30 s and at the end (does it grow?). Nothing else runs.
 */
const SOAK = args.includes('--soak') ? Number(option('--soak') ?? '') || 300 : 0;
/**
 * --budget [--rounds 2] [--budget-cases none,principal,hot]: the 100-rule tenant without and with a budget rule (by principal over 1,000 agents, and one
 * hot window), alternating, at the first of --sizes and the last of --connections (bench/verdict/budget.ts).
 */
const BUDGET = args.includes('--budget');
const ROUNDS = Number(option('--rounds') ?? '2');
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';

const results: Record<string, unknown> = {};

/** VmRSS of a process, in MiB (Linux /proc). */
function rssMib(pid: number): number {
  const line =
    fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:')) ?? 'VmRSS: 0 kB';
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

/** --soak: full load for `seconds`; the gateway's RSS at 30 s and at the end. */
async function soak(registry: string, adminKey: string, verdict: string, gateway: ChildProcess, seconds: number) {
  const t = await benchTenant(registry, adminKey, 100);
  await preflight(verdict, t);
  const samples: Array<{ at_s: number; rss_mib: number }> = [];
  const started = Date.now();
  const sampler = setInterval(
    () => samples.push({ at_s: Math.round((Date.now() - started) / 1000), rss_mib: rssMib(gateway.pid!) }),
    10_000,
  );
  const r = await runLoad({
    url: verdict,
    path: `/${t.id}/v1/check`,
    headers: { 'x-api-key': t.key },
    bodies: t.bodies,
    connections: 64,
    seconds,
  });
  clearInterval(sampler);
  const end = rssMib(gateway.pid!);
  const at30 = samples.find((s) => s.at_s >= 30)?.rss_mib ?? samples[0]?.rss_mib ?? end;
  const out = {
    seconds,
    per_second: r.per_second,
    p99_ms: r.p99_ms,
    failures: r.failures,
    rss_30s_mib: at30,
    rss_end_mib: end,
    ratio: Math.round((end / at30) * 100) / 100,
    samples,
  };
  log(
    `soak, 100 rules, 64 connections, ${seconds} s: ${r.per_second}/s, p99 ${r.p99_ms} ms, failures ${r.failures}; gateway RSS ${at30} MiB at 30 s, ${end} MiB at the end (${out.ratio}x)`,
  );
  log(`  RSS every 10 s (MiB): ${samples.map((s) => s.rss_mib).join(' ')}`);
  return out;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-verdict-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const children: ChildProcess[] = [];
  // --pg-statements (with --budget): pg_stat_statements loaded, tracking the statements inside functions too, each
  // budget case's statements reported.
  const statements = BUDGET && process.argv.includes('--pg-statements');
  const pg = await startPostgres({
    dataDir: path.join(dir, 'pg'),
    durable: true,
    settings: {
      max_connections: '200',
      ...(statements ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', track_functions: 'pl' } : {}),
    },
  });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  try {
    results.machine = machine();
    results.postgres = await pgSettings(pg.url);
    log(`machine: ${JSON.stringify(results.machine)}`);
    log(`PostgreSQL: ${JSON.stringify(results.postgres)}`);
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_verdict']);
    const adminKey = generateApiKey();
    const env = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      // Tracing on in the registry and the gateways (docs/operations.md "Tracing"): an OTLP/HTTP receiver's URL.
      ...(process.env.BENCH_OTEL_EXPORTER_OTLP_ENDPOINT
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_OTEL_EXPORTER_OTLP_ENDPOINT }
        : {}),
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
    });
    const verdictProcess = children[children.length - 1];
    // A second replica on the same database and Redis (the "2 replicas" rows): what a second process buys on two cores.
    const verdict2 = await startService(children, 'verdict', path.join(ROOT, 'dist/apps/verdict/main.js'), {
      ...env,
      DATABASE_URL_VERDICT: verdictDb,
      REGISTRY_URL: registry,
    });
    const verdict2Process = children[children.length - 1];
    const floor = await startService(
      children,
      'floor',
      path.join(ROOT, 'dist/bench/verdict/floor.js'),
      {
        PATH: process.env.PATH,
        DATABASE_URL: verdictDb,
        ...(process.env.BENCH_FLOOR_ROW_BYTES ? { FLOOR_ROW_BYTES: process.env.BENCH_FLOOR_ROW_BYTES } : {}),
      },
      '/livez-not-served',
    );

    if (SOAK) {
      results.soak = await soak(registry, adminKey, verdict, verdictProcess, SOAK);
      return;
    }

    if (BUDGET) {
      results.budget = await budgetCases({
        registry,
        adminKey,
        verdict,
        verdictProcess,
        pgPid: pg.pid,
        pgStatements: statements ? databaseUrl(pg.url, 'arbiter_verdict') : undefined,
        rules: SIZES[0],
        connections: CONNECTIONS[CONNECTIONS.length - 1],
        seconds: SECONDS,
        rounds: ROUNDS,
        only: option('--budget-cases')?.split(','),
      });
      return;
    }

    // --- engine alone vs Cedar (servers idle) ---------------------------------------------------------
    const engines = (SKIP_ENGINES ? [] : SIZES).map((n) => {
      const r = compareEngines(n, QUICK ? 1 : 3);
      log(
        `engine vs cedar-wasm, ${n} rules: engine ${r.engine_per_second}/s, cedar ${r.cedar_per_second}/s, ratio ${r.ratio}x, same verdicts on ${Math.round(r.agreement * 100)}% of requests`,
      );
      return r;
    });
    results.engine_vs_cedar = engines;

    // --- HTTP checks ------------------------------------------------------------------------------------
    const tenants: Record<number, { id: string; key: string; bodies: string[] }> = {};
    for (const n of SIZES) {
      const started = Date.now();
      tenants[n] = await benchTenant(registry, adminKey, n);
      log(`tenant with ${n} rules made through the registry API in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await preflight(verdict, tenants[n]);
    }
    const checks: Array<LoadResult & { rules: number; server_cpu_us_per_request: number }> = [];
    const floors: Array<LoadResult & { server_cpu_us_per_request: number }> = [];
    const floorBodies = (tenants[100] ?? tenants[SIZES[0]]).bodies;
    const floorProcess = children[children.length - 1];
    if (!CHECKS_ONLY) await runLoad({ url: floor, path: '/check', headers: {}, bodies: floorBodies, connections: 64, seconds: 2 }); // warm-up
    for (const c of CHECKS_ONLY ? [] : CONNECTIONS) {
      const r = await measured(
        floorProcess,
        pg.pid,
        () => runLoad({ url: floor, path: '/check', headers: {}, bodies: floorBodies, connections: c, seconds: SECONDS }),
        verdictDb,
      );
      floors.push(r);
      log(
        `floor (express 5 + ES256 + group commit), ${c} connections: ${r.per_second}/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, failures ${r.failures}, CPU per request: server ${r.server_cpu_us_per_request} µs, PostgreSQL ${r.postgres_cpu_us_per_request} µs, load generator ${r.loadgen_cpu_us_per_request} µs; ${walLine(r)}`,
      );
    }
    for (const n of SIZES) {
      const t = tenants[n];
      const load = (connections: number, seconds: number) =>
        runLoad({ url: verdict, path: `/${t.id}/v1/check`, headers: { 'x-api-key': t.key }, bodies: t.bodies, connections, seconds });
      await load(64, 3); // warm-up: JIT, pool, key ring
      for (const c of CONNECTIONS) {
        const r = await measured(verdictProcess, pg.pid, () => load(c, SECONDS), verdictDb);
        checks.push({ rules: n, ...r });
        log(
          `check, ${n} rules, ${c} connections: ${r.per_second}/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, failures ${r.failures} ${JSON.stringify(r.statuses)}, CPU per request: server ${r.server_cpu_us_per_request} µs, PostgreSQL ${r.postgres_cpu_us_per_request} µs, load generator ${r.loadgen_cpu_us_per_request} µs; ${walLine(r)}`,
        );
      }
    }
    // Two replicas, 32 connections each.
    const replicas: Array<LoadResult & { rules: number }> = [];
    for (const n of SIZES) {
      if (!CONNECTIONS.includes(64) || CHECKS_ONLY) break;
      const t = tenants[n];
      const load = (seconds: number) =>
        runLoad({
          url: [verdict, verdict2],
          path: `/${t.id}/v1/check`,
          headers: { 'x-api-key': t.key },
          bodies: t.bodies,
          connections: 64,
          seconds,
        });
      await load(3);
      const r = await load(SECONDS);
      replicas.push({ rules: n, ...r });
      log(
        `check, ${n} rules, 64 connections over 2 replicas: ${r.per_second}/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, failures ${r.failures} ${JSON.stringify(r.statuses)}`,
      );
    }
    results.checks_two_replicas = replicas;
    void verdict2Process;

    // The shared HTTP stack alone (logging, metrics, tsoa, authentication): GET /v1/whoami, no evaluation, no write.
    const t100 = tenants[100] ?? tenants[SIZES[0]];
    const whoami = CHECKS_ONLY
      ? undefined
      : await measured(verdictProcess, pg.pid, () =>
          runLoad({
            url: verdict,
            path: '/v1/whoami',
            method: 'GET',
            headers: { 'x-api-key': t100.key },
            bodies: [],
            connections: 64,
            seconds: QUICK ? 3 : 5,
          }),
        );
    results.whoami_64 = whoami;
    if (whoami)
      log(
        `GET /v1/whoami (HTTP stack + authentication only), 64 connections: ${whoami.per_second}/s, p99 ${whoami.p99_ms} ms, CPU per request: server ${whoami.server_cpu_us_per_request} µs`,
      );
    results.floor = floors;
    results.checks = checks;
    const c100 = checks.find((c) => c.rules === 100 && c.connections === 64);
    const f64 = floors.find((f) => f.connections === 64);
    if (c100 && f64) {
      results.ratio_to_floor_100_rules_64 = Math.round((c100.per_second / f64.per_second) * 100) / 100;
      log(`ratio to the floor at 64 connections, 100 rules: ${results.ratio_to_floor_100_rules_64}`);
    }
    results.consultations_written = await count(verdictDb);
    log(`consultations written: ${results.consultations_written}`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await Promise.allSettled([pg.stop(), redis.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
}

/** The WAL a measured run wrote per request (harness.ts `measured` with a database URL). */
function walLine(r: { wal_bytes_per_request?: number; wal_records_per_request?: number; wal_fpi_per_request?: number }): string {
  return `WAL per request: ${r.wal_bytes_per_request} bytes, ${r.wal_records_per_request} records, ${r.wal_fpi_per_request} full-page images`;
}

async function count(url: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(
    'SELECT count(*)::int AS n, avg(octet_length(record::text))::int AS text_bytes, avg(pg_column_size(record))::int AS stored_bytes FROM consultations',
  );
  // Everything a consultation costs on disk: its row (with TOAST) and its index entries, per record.
  const sizes = await c.query(
    // consultations is partitioned (docs/operations.md "Partitions"): its size is the sum of its partitions'.
    `SELECT sum(pg_table_size(relid))::float8 AS table_bytes, sum(pg_indexes_size(relid))::float8 AS index_bytes,
            (SELECT count(*) FROM consultations)::float8 AS n
       FROM pg_partition_tree('consultations') WHERE isleaf`,
  );
  // What a record's bytes are made of: each top-level member's JSON text (its key, colon and comma aside), over a sample.
  const members = await c.query(
    `SELECT m.key, avg(octet_length(m.value::text))::int AS bytes, count(*)::int AS n
       FROM (SELECT record FROM consultations LIMIT 5000) r, json_each(r.record) m GROUP BY m.key ORDER BY 2 DESC`,
  );
  // BENCH_RECORDS_OUT=FILE: 2,000 stored records, one per line, as stored (for storage experiments outside the bench).
  if (process.env.BENCH_RECORDS_OUT) {
    const sample = await c.query('SELECT record::text AS t FROM consultations LIMIT 2000');
    fs.writeFileSync(process.env.BENCH_RECORDS_OUT, sample.rows.map((r) => `${r.t}\n`).join(''));
  }
  await c.end();
  log(
    `record members, mean bytes where present (present in n of the sample): ${members.rows.map((m) => `${m.key} ${m.bytes} (${m.n})`).join(', ')}`,
  );
  const { table_bytes, index_bytes, n } = sizes.rows[0];
  const per = (bytes: number) => Math.round(bytes / Math.max(1, n));
  log(
    `consultation records: mean ${rows[0].text_bytes} bytes of JSON, ${rows[0].stored_bytes} bytes stored; on disk per record: table ${per(table_bytes)} bytes, indexes ${per(index_bytes)} bytes`,
  );
  return rows[0].n;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
