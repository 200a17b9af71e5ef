// The window store microbenchmark (run it with `node bench/windows/bench.mjs`; docs/benchmarks.md "Policies that
// remember"). Per store and key spread: `callers` concurrent closed loops, each taking one count window (amount 1,
// a max no run reaches, so every take succeeds and writes) for `seconds`; per-take latency, takes per second,
// and the CPU per take of the store's server and of this client. Stores alternate within each round.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { databaseUrl, ensureDatabases, findFreePort, startPostgres } from '@arbiter/devstack';
import { windowMs } from '@arbiter/policy';
import { log, machine, pgSettings, treeCpuSeconds } from '../verdict/harness';
import {
  PG_SCHEMA,
  VERDICT_MIGRATIONS,
  pgBatcher,
  pgTake,
  productMigrations,
  productTake,
  type TakeNeed,
  type TakeResult,
} from './pg-store';
import { defineTake, redisTake } from './redis-store';
import { WindowRepository } from '../../apps/verdict/src/repositories/windows.repository';
import { mintTenantId } from '@arbiter/auth';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SECONDS = Number(option('--seconds', '5'));
const ROUNDS = Number(option('--rounds', '2'));
const KEYS = option('--keys', '1,1000').split(',').map(Number);
const CALLERS = Number(option('--callers', '64'));
const MIGRATIONS_DIR = path.resolve(__dirname, '../../..', VERDICT_MIGRATIONS);
/** The SQL of the product stores: --product-sql FILE, else the window migrations of this checkout, in order. */
const PRODUCT_SQL: string[] = args.includes('--product-sql')
  ? [option('--product-sql', '')]
  : fs.existsSync(MIGRATIONS_DIR)
    ? productMigrations(MIGRATIONS_DIR)
    : [];
/** `product` runs only where its migrations are (this checkout, or --product-sql). */
const STORES = option('--stores', 'pg,product,product-batch,pg-batch,redis')
  .split(',')
  .filter((s) => !s.startsWith('product') || (PRODUCT_SQL.length > 0 && PRODUCT_SQL.every((file) => fs.existsSync(file))));
/** Short enough that events leave their window during a run: the expiry step does its steady-state work. */
const WINDOW_MS = windowMs(option('--window', '2s'))!;
const JSON_OUT = args.includes('--json') ? option('--json', '') : undefined;
const TENANT = 'ten-bench';

interface Run {
  store: string;
  keys: number;
  round: number;
  takes: number;
  refused: number;
  errors: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  server_cpu_us_per_take: number;
  client_cpu_us_per_take: number;
  /** Takes per call, for a store that gathers them (product-batch). */
  mean_batch?: number;
}

type Take = (consultation: string, needs: TakeNeed[]) => Promise<TakeResult>;

const round2 = (x: number) => Math.round(x * 100) / 100;
const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `callers` closed loops for `seconds`; every take on one of `keys` windows (prefix: fresh windows per run). */
async function load(take: Take, keys: number, prefix: string, seconds: number) {
  const latencies: number[] = [];
  let refused = 0;
  let errors = 0;
  let seq = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      while (performance.now() < until) {
        const n = seq++;
        const key = `${prefix}:${keys === 1 ? 0 : (n * 7919 + caller) % keys}`;
        const t0 = performance.now();
        try {
          const r = await take(`csl-${prefix}-${n}`, [{ key, windowMs: WINDOW_MS, amount: 1, max: 1e12 }]);
          if (!r.taken) refused++;
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const sorted = Float64Array.from(latencies).sort();
  return { takes: latencies.length, refused, errors, p50_ms: round2(percentile(sorted, 50)), p99_ms: round2(percentile(sorted, 99)) };
}

async function measure(store: string, serverPid: number, take: Take, keys: number, round: number): Promise<Run> {
  await load(take, keys, `warm-${store}-${keys}-${round}`, 1);
  const s0 = treeCpuSeconds(serverPid);
  const c0 = process.cpuUsage();
  const started = performance.now();
  const r = await load(take, keys, `run-${store}-${keys}-${round}`, SECONDS);
  const elapsed = (performance.now() - started) / 1000;
  const c = process.cpuUsage(c0);
  const perTake = (cpuSeconds: number) => Math.round((cpuSeconds * 1e6) / Math.max(1, r.takes));
  return {
    store,
    keys,
    round,
    ...r,
    per_second: Math.round(r.takes / elapsed),
    server_cpu_us_per_take: perTake(treeCpuSeconds(serverPid) - s0),
    client_cpu_us_per_take: perTake((c.user + c.system) / 1e6),
  };
}

/** redis-server with every write fsynced before its answer (`appendfsync always`), nothing else saved. */
async function startDurableRedis(dir: string): Promise<{ child: ChildProcess; port: number }> {
  fs.mkdirSync(dir, { recursive: true });
  const port = await findFreePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined); // not listening yet
    const up = await probe.connect().then(
      () => probe.ping().then(() => true),
      () => false,
    );
    probe.disconnect();
    if (up) return { child, port };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not answer within 10 s');
}

/** The gateway's WindowRepository, each bench window a `count` rule's window of its own key. */
function productBatcher(repo: WindowRepository): Take {
  const tenant = mintTenantId(TENANT);
  return async (consultation, needs) => {
    const r = await repo.take(
      tenant,
      consultation,
      needs.map((n) => ({
        rule_id: 'rul-bench',
        rule_version_id: 'rv-bench',
        key: n.key,
        window: `${n.windowMs}ms`,
        window_ms: n.windowMs,
        amount: n.amount,
        max: n.max,
      })),
      [],
    );
    return { taken: r.taken, usedBefore: r.used_before };
  };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-windows-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_connections: '200' } });
  const redisServer = await startDurableRedis(path.join(dir, 'redis'));
  const redis = defineTake(new Redis({ port: redisServer.port, host: '127.0.0.1' }));
  const results: Record<string, unknown> = {};
  let pool: Pool | undefined;
  let productPool: Pool | undefined;
  try {
    await ensureDatabases(pg.url, ['arbiter_windows_bench']);
    pool = new Pool({ connectionString: databaseUrl(pg.url, 'arbiter_windows_bench'), max: CALLERS });
    pool.on('error', () => undefined); // idle clients cut off at the server's stop
    await pool.query(PG_SCHEMA);
    if (STORES.some((s) => s.startsWith('product'))) {
      // Its own database: the product's tables share names with the prototype's.
      await ensureDatabases(pg.url, ['arbiter_windows_product']);
      productPool = new Pool({ connectionString: databaseUrl(pg.url, 'arbiter_windows_product'), max: CALLERS });
      productPool.on('error', () => undefined);
      for (const file of PRODUCT_SQL) await productPool.query(fs.readFileSync(file, 'utf8'));
      log(`product stores: ${PRODUCT_SQL.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
    }
    const appendfsync = await redis.config('GET', 'appendfsync');
    results.machine = machine();
    results.postgres = await pgSettings(pg.url);
    results.redis = { appendonly: (await redis.config('GET', 'appendonly'))[1], appendfsync: appendfsync[1] };
    log(`machine: ${JSON.stringify(results.machine)}`);
    log(`PostgreSQL: ${JSON.stringify(results.postgres)}; Redis: ${JSON.stringify(results.redis)}`);
    log(`${CALLERS} callers, ${SECONDS} s per run, window ${WINDOW_MS} ms, ${ROUNDS} rounds, stores alternating`);
    const p = pool;
    const stores: Record<string, { pid: number; take: Take; reset: () => Promise<unknown> }> = {
      pg: {
        pid: pg.pid,
        take: (c, needs) => pgTake(p, TENANT, c, needs),
        reset: () => p.query('TRUNCATE window_events, window_totals'),
      },
      // The same function one operation per call, gathered by the client into one call per round trip.
      'pg-batch': {
        pid: pg.pid,
        take: pgBatcher(p, TENANT),
        reset: () => p.query('TRUNCATE window_events, window_totals'),
      },
      ...(productPool
        ? {
            product: {
              pid: pg.pid,
              take: (c: string, needs: TakeNeed[]) => productTake(productPool!, TENANT, c, needs),
              reset: () => productPool!.query('TRUNCATE window_events, window_totals'),
            },
            // The gateway's own store: takes gathered while its batch is in flight (one in flight, at most 256).
            'product-batch': {
              pid: pg.pid,
              take: productBatcher(new WindowRepository(productPool, { onBatch: (size) => batchSizes.push(size) })),
              reset: () => productPool!.query('TRUNCATE window_events, window_totals'),
            },
          }
        : {}),
      redis: { pid: redisServer.child.pid!, take: (c, needs) => redisTake(redis, TENANT, c, needs), reset: () => redis.flushall() },
    };
    const runs: Run[] = [];
    const batchSizes: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const keys of KEYS) {
        for (const store of STORES) {
          const s = stores[store];
          await s.reset();
          batchSizes.length = 0;
          const r = await measure(store, s.pid, s.take, keys, round);
          if (batchSizes.length > 0) r.mean_batch = round2(batchSizes.reduce((a, b) => a + b, 0) / batchSizes.length);
          runs.push(r);
          log(
            `round ${round}, ${store}, ${keys} key(s): ${r.per_second} takes/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, refused ${r.refused}, errors ${r.errors}, CPU per take: server ${r.server_cpu_us_per_take} µs, client ${r.client_cpu_us_per_take} µs${r.mean_batch ? `, mean batch ${r.mean_batch}` : ''}`,
          );
        }
      }
    }
    results.runs = runs;
    // The prototypes keep their promise under the same concurrency: a window of 500 on one key, 64 callers.
    const verified: Record<string, number> = {};
    for (const store of STORES) {
      await stores[store].reset();
      let taken = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: CALLERS }, async () => {
          while (next < 2000) {
            const n = next++;
            const r = await stores[store].take(`csl-verify-${n}`, [{ key: 'verify', windowMs: 3_600_000, amount: 1, max: 500 }]);
            if (r.taken) taken++;
          }
        }),
      );
      verified[store] = taken;
      log(`${store}: 2000 takes on one window of 500, ${CALLERS} callers: ${taken} taken${taken === 500 ? '' : ' (WRONG: must be 500)'}`);
      if (taken !== 500) process.exitCode = 1;
    }
    results.verified = verified;
  } finally {
    await pool?.end();
    await productPool?.end();
    redis.disconnect();
    redisServer.child.kill('SIGTERM');
    await new Promise((r) => (redisServer.child.exitCode !== null ? r(null) : redisServer.child.once('exit', r)));
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
