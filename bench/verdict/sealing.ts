// The cost of sealing: check throughput with LEDGER_SEALING off and on in the same run,
// and the sealing lag (decision to ledger fact) at a sustained open-loop rate. Run it with
// `node bench/verdict/bench.mjs --sealing`. See docs/benchmarks.md "Sealing".
//
// Two verdict gateways on the same database (one with LEDGER_SEALING=false, one with true), the registry,
// the ledger and a worker run as separate processes on a durable PostgreSQL and a Redis. The two gateways
// are measured in turn (off, on, off, on, ...), each for the same seconds at 64 connections; after each
// "on" measurement the outbox is left to drain before anything else is measured, so its sealing never
// lands in an "off" figure. Then an open-loop load at --rate checks/s runs against the sealing gateway;
// afterwards every fact of the window is read back from the tenant's consultations stream (the ledger's
// public API, the tenant's read key) and lag = sealed_at_ms - decided_at (the consultation's requested_at).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { databaseUrl, ensureDatabases, findFreePort, startPostgres, startRedis } from '@arbiter/devstack';
import { api, benchTenant, log, machine, measured, pgSettings, preflight, startService, treeCpuSeconds } from './harness';
import { runLoad, runOpenLoad } from './loadgen';

const ROOT = path.resolve(__dirname, '../../..');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const QUICK = args.includes('--quick');
const JSON_OUT = option('--json');
const SECONDS = Number(option('--seconds') ?? (QUICK ? 5 : 10));
const ROUNDS = Number(option('--rounds') ?? (QUICK ? 1 : 3));
const CONNECTIONS = Number(option('--connections') ?? 64);
const RULES = Number(option('--rules') ?? 100);
const RATE = Number(option('--rate') ?? 1000);
const LAG_SECONDS = Number(option('--lag-seconds') ?? (QUICK ? 10 : 30));
/** --worker-env K=V,K=V: the worker's settings for tuning runs (SEAL_BATCH_SIZE, RELAY_INTERVAL_MS, WORKER_CONCURRENCY, ...). */
const WORKER_ENV = Object.fromEntries(
  (option('--worker-env') ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
const SKIP_THROUGHPUT = args.includes('--lag-only');
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';

const results: Record<string, unknown> = {};

type Measured = Awaited<ReturnType<typeof measured>>;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-sealing-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const children: ChildProcess[] = [];
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_connections: '300' } });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  try {
    results.machine = machine();
    results.postgres = await pgSettings(pg.url);
    log(`machine: ${JSON.stringify(results.machine)}`);
    log(`PostgreSQL: ${JSON.stringify(results.postgres)}`);
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_verdict', 'arbiter_ledger']);
    const adminKey = generateApiKey();
    const env = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    };
    const dist = (app: string) => path.join(ROOT, `dist/apps/${app}/main.js`);
    const registry = await startService(children, 'registry', dist('registry'), {
      ...env,
      DATABASE_URL_REGISTRY: databaseUrl(pg.url, 'arbiter_registry'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
    });
    const ledger = await startService(children, 'ledger', dist('ledger'), {
      ...env,
      DATABASE_URL_LEDGER: databaseUrl(pg.url, 'arbiter_ledger'),
      REGISTRY_URL: registry,
    });
    const ledgerProcess = children[children.length - 1];
    const verdictDb = databaseUrl(pg.url, 'arbiter_verdict');
    const verdictEnv = { ...env, DATABASE_URL_VERDICT: verdictDb, REGISTRY_URL: registry, LEDGER_URL: ledger };
    const off = await startService(children, 'verdict', dist('verdict'), { ...verdictEnv, LEDGER_SEALING: 'false' });
    const offProcess = children[children.length - 1];
    const on = await startService(children, 'verdict', dist('verdict'), { ...verdictEnv, LEDGER_SEALING: 'true' });
    const onProcess = children[children.length - 1];
    const workerEnv = { ...env, REGISTRY_URL: registry, VERDICT_URL: on, LEDGER_URL: ledger, ...WORKER_ENV };
    results.worker_env = WORKER_ENV;
    // The worker serves /livez on its ops port (METRICS_PORT); startService gives it PORT, which it ignores.
    const workerPort = await findFreePort();
    await startService(
      children,
      'worker',
      dist('worker'),
      { ...workerEnv, METRICS_PORT: String(workerPort) },
      `http://127.0.0.1:${workerPort}/livez`,
    );
    const workerProcess = children[children.length - 1];

    const started = Date.now();
    const tenant = await benchTenant(registry, adminKey, RULES, {
      rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 },
    });
    log(`tenant with ${RULES} rules made through the registry API in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const readKey = (
      await api(
        registry,
        'POST',
        '/api/v1/api-keys',
        { Authorization: `Bearer ${adminKey}` },
        { principal_id: tenant.principalId, permissions: ['read'], tenant_id: tenant.id },
      )
    ).key as string;
    await preflight(off, tenant);
    await preflight(on, tenant);
    const stream = `arbiter.${tenant.id}.consultations`;
    const outbox = () => scalar(verdictDb, 'SELECT count(*)::int AS n FROM seal_outbox');
    const drain = async (deadlineMs = 600_000) => {
      const t0 = Date.now();
      while ((await outbox()) > 0) {
        if (Date.now() - t0 > deadlineMs) throw new Error('the seal outbox did not drain');
        await new Promise((r) => setTimeout(r, 100));
      }
      return Date.now() - t0;
    };
    await drain();

    // --- throughput, off and on in turn ------------------------------------------------------------------
    const load = (url: string, seconds: number) =>
      runLoad({
        url,
        path: `/${tenant.id}/v1/check`,
        headers: { 'x-api-key': tenant.key },
        bodies: tenant.bodies,
        connections: CONNECTIONS,
        seconds,
      });
    const rounds: Array<{
      off: Measured;
      on: Measured & { outbox_at_end: number };
      drain_ms_after_on: number;
      paused: Measured & { outbox_at_end: number; drain_ms: number };
    }> = [];
    // The other processes on the same cores, measured with each load: what sealing costs them (Redis carries the
    // relay's jobs and the gateway's nudges).
    const others = { ledger: ledgerProcess.pid!, worker: workerProcess.pid!, redis: redis.pid };
    // With the WAL the cluster wrote meanwhile (every database: the ledger's facts too), per check.
    const cpuOf = (m: Measured) =>
      `gateway ${m.server_cpu_us_per_request} µs, PostgreSQL ${m.postgres_cpu_us_per_request} µs, ledger ${m.others_cpu_us_per_request.ledger} µs, worker ${m.others_cpu_us_per_request.worker} µs, Redis ${m.others_cpu_us_per_request.redis} µs; WAL ${m.wal_bytes_per_request} bytes`;
    if (!SKIP_THROUGHPUT) {
      await load(off, 3); // warm-up: JIT, pools, key ring
      await load(on, 3);
      await drain();
      for (let round = 1; round <= ROUNDS; round++) {
        const o = await measured(offProcess, pg.pid, () => load(off, SECONDS), verdictDb, others);
        log(
          `round ${round}, sealing off: ${o.per_second}/s, p50 ${o.p50_ms} ms, p99 ${o.p99_ms} ms, failures ${o.failures}, CPU per check: ${cpuOf(o)}`,
        );
        const s = await measured(onProcess, pg.pid, () => load(on, SECONDS), verdictDb, others);
        const onRun = { ...s, outbox_at_end: await outbox() };
        const drained = await drain();
        log(
          `round ${round}, sealing on:  ${s.per_second}/s, p50 ${s.p50_ms} ms, p99 ${s.p99_ms} ms, failures ${s.failures}, CPU per check: ${cpuOf(s)}; outbox ${onRun.outbox_at_end} rows at the end, drained ${drained} ms later`,
        );
        // The check path alone: the worker stopped (SIGSTOP) while the sealing gateway is measured, as
        // when the worker and the ledger run on other machines; the outbox drains after SIGCONT.
        process.kill(workerProcess.pid!, 'SIGSTOP');
        let p: Measured;
        try {
          p = await measured(onProcess, pg.pid, () => load(on, SECONDS), verdictDb, others);
        } finally {
          process.kill(workerProcess.pid!, 'SIGCONT');
        }
        const pausedOutbox = await outbox();
        const drainedPaused = await drain();
        log(
          `round ${round}, sealing on, relay paused: ${p.per_second}/s, p50 ${p.p50_ms} ms, p99 ${p.p99_ms} ms, failures ${p.failures}, CPU per check: ${cpuOf(p)}; outbox ${pausedOutbox} rows, drained ${drainedPaused} ms after the relay resumed`,
        );
        rounds.push({
          off: o,
          on: onRun,
          drain_ms_after_on: drained,
          paused: { ...p, outbox_at_end: pausedOutbox, drain_ms: drainedPaused },
        });
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const offMean = mean(rounds.map((r) => r.off.per_second));
      const onMean = mean(rounds.map((r) => r.on.per_second));
      const pausedMean = mean(rounds.map((r) => r.paused.per_second));
      const ratio = (x: number) => Math.round((x / offMean) * 1000) / 1000;
      results.throughput = {
        rounds,
        off_mean: Math.round(offMean),
        on_mean: Math.round(onMean),
        ratio: ratio(onMean),
        paused_mean: Math.round(pausedMean),
        paused_ratio: ratio(pausedMean),
      };
      // Every process on the box, per check: a sealed one against an unsealed one.
      const cpu = (m: Measured) =>
        m.server_cpu_us_per_request + m.postgres_cpu_us_per_request + Object.values(m.others_cpu_us_per_request).reduce((a, b) => a + b, 0);
      const offCpu = mean(rounds.map((r) => cpu(r.off)));
      const onCpu = mean(rounds.map((r) => cpu(r.on)));
      results.cpu_per_check = { off_us: Math.round(offCpu), on_us: Math.round(onCpu), ratio: Math.round((onCpu / offCpu) * 100) / 100 };
      log(
        `throughput: off ${Math.round(offMean)}/s, on ${Math.round(onMean)}/s, ratio on/off ${(onMean / offMean).toFixed(3)} (target ≥ 0.9); on with the relay paused ${Math.round(pausedMean)}/s, ratio ${(pausedMean / offMean).toFixed(3)}`,
      );
      log(
        `CPU per check, every process (gateway, PostgreSQL, ledger, worker, Redis): off ${Math.round(offCpu)} µs, on ${Math.round(onCpu)} µs, ratio ${(onCpu / offCpu).toFixed(2)}`,
      );
    }

    // --- sealing lag at a sustained open-loop rate ------------------------------------------------------
    await drain();
    const before = await streamCount(ledger, readKey, stream);
    const loadavg = os.loadavg().map((x) => Math.round(x * 100) / 100);
    const l0 = treeCpuSeconds(ledgerProcess.pid!);
    const w0 = treeCpuSeconds(workerProcess.pid!);
    const open = await runOpenLoad({
      url: on,
      path: `/${tenant.id}/v1/check`,
      headers: { 'x-api-key': tenant.key },
      bodies: tenant.bodies,
      rate: RATE,
      seconds: LAG_SECONDS,
      connections: CONNECTIONS,
    });
    const drained = await drain();
    log(
      `open loop ${RATE}/s for ${LAG_SECONDS} s (load average before ${loadavg.join(' ')}): ${open.requests} checks, ${open.per_second}/s, p50 ${open.p50_ms} ms, p99 ${open.p99_ms} ms, failures ${open.failures} ${JSON.stringify(open.statuses)}; outbox drained ${drained} ms after the last answer`,
    );
    const cpu = {
      ledger_s: Math.round((treeCpuSeconds(ledgerProcess.pid!) - l0) * 10) / 10,
      worker_s: Math.round((treeCpuSeconds(workerProcess.pid!) - w0) * 10) / 10,
    };
    const facts = await streamFacts(ledger, readKey, stream, before);
    const lags = Float64Array.from(facts.map((f) => f.sealed_at_ms - Date.parse(f.custom_payload.decided_at))).sort();
    const pct = (p: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))]);
    const sealed = new Set(facts.map((f) => f.custom_payload.consultation_id)).size;
    const ok = open.statuses['200'] ?? 0;
    results.lag = {
      rate: RATE,
      seconds: LAG_SECONDS,
      loadavg_before: loadavg,
      checks: open,
      cpu,
      facts: facts.length,
      distinct_consultations: sealed,
      p50_ms: pct(50),
      p99_ms: pct(99),
      max_ms: Math.round(lags[lags.length - 1] ?? NaN),
    };
    log(
      `sealing lag over ${facts.length} facts (${sealed} distinct consultations; ${ok} checks answered 200): p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${Math.round(lags[lags.length - 1])} ms (target p99 ≤ 5000 ms); CPU in the window: ledger ${cpu.ledger_s} s, worker ${cpu.worker_s} s`,
    );
    if (facts.length !== ok || sealed !== ok) log(`WARNING: ${ok} consultations made, ${facts.length} facts (${sealed} distinct) sealed`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await Promise.allSettled([pg.stop(), redis.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
}

async function scalar(url: string, sql: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ n: number }>(sql)).rows[0].n;
  } finally {
    await c.end();
  }
}

interface ListedFact {
  sealed_at_ms: number;
  custom_payload: { consultation_id: string; decided_at: string };
}

async function streamCount(ledger: string, key: string, stream: string): Promise<number> {
  const res = await fetch(`${ledger}/streams/${stream}/facts?limit=1`, { headers: { 'x-api-key': key } });
  if (res.status === 404) return 0;
  if (!res.ok) throw new Error(`stream count: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { count: number }).count;
}

/** The stream's facts from `offset` on, page by page. */
async function streamFacts(ledger: string, key: string, stream: string, offset: number): Promise<ListedFact[]> {
  const facts: ListedFact[] = [];
  for (;;) {
    const res = await fetch(`${ledger}/streams/${stream}/facts?limit=1000&offset=${offset + facts.length}`, {
      headers: { 'x-api-key': key },
    });
    if (!res.ok) throw new Error(`stream facts: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { facts: ListedFact[]; count: number };
    facts.push(...page.facts);
    if (!page.facts.length || offset + facts.length >= page.count) return facts;
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
