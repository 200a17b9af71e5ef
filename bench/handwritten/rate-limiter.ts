// The ledger's token bucket (apps/ledger/src/services/rate-limiter.service.ts, a Lua script in Redis) against
// rate-limiter-flexible's RateLimiterRedis (a fixed window) and BurstyRateLimiter (a fixed window per second plus
// a fixed-window burst pool), all on one real Redis started here with libs/devstack:
// 1. semantics: the standard tier (1,000 a minute, burst 100) under a client that fires at the edge of the
//    windows; the figure is the most requests admitted in any one-second span;
// 2. cost per decision: client CPU, Redis CPU, round trips, wall time, when admitted and when refused.
// Run with `node bench/handwritten/run.mjs rate-limiter`; results in docs/benchmarks.md
// "Hand-written pieces against their libraries".
import { Redis } from 'ioredis';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiter } from '../../apps/ledger/src/services/rate-limiter.service';
import { startRedis } from '../../libs/devstack/src/redis';
import { cpuMicros, median, printMachine, summary } from './common';

const QUICK = process.argv.includes('--quick');

/** One decision: true = admitted, false = refused. */
type Decide = (key: string) => Promise<boolean>;

interface Window {
  points: number;
  duration: number;
}

/**
 * A tier: the token bucket's policy, and the rate-limiter-flexible windows that come closest to it. `fixed` is the
 * plain RateLimiterRedis; BurstyRateLimiter takes a `rate` window and, when that one is spent, a `pool` window.
 */
interface Tier {
  perMinute: number;
  burst: number;
  fixed: Window;
  rate: Window;
  pool: Window;
}

/** A tier of `perMinute` requests a minute with a burst of `burst`: a window of the minute; for BurstyRateLimiter,
 * a per-second window at the rate (rounded down) plus a burst pool of `burst` a minute. */
function tier(perMinute: number, burst: number): Tier {
  return {
    perMinute,
    burst,
    fixed: { points: perMinute, duration: 60 },
    rate: { points: Math.floor(perMinute / 60), duration: 1 },
    pool: { points: burst, duration: 60 },
  };
}

/** The three limiters for `t`, on keys of their own (`tag`). */
function limiters(redis: Redis, tag: string, t: Tier): Record<string, Decide> {
  const bucket = new RateLimiter({
    redis,
    logger: pino({ level: 'silent' }),
    defaults: { capacity: t.burst, perMinute: t.perMinute },
    keyPrefix: `bucket:${tag}:`,
  });
  const policy = { capacity: t.burst, perMinute: t.perMinute };
  const fixed = new RateLimiterRedis({ storeClient: redis, ...t.fixed, keyPrefix: `fixed:${tag}` });
  const bursty = new BurstyRateLimiter(
    new RateLimiterRedis({ storeClient: redis, ...t.rate, keyPrefix: `rate:${tag}` }),
    new RateLimiterRedis({ storeClient: redis, ...t.pool, keyPrefix: `pool:${tag}` }),
  );
  const library =
    (limiter: { consume(key: string): Promise<unknown> }): Decide =>
    (key) =>
      limiter.consume(key).then(
        () => true,
        (err: unknown) => {
          if (err instanceof RateLimiterRes) return false;
          throw err;
        },
      );
  return {
    'token bucket (ledger)': (key) => bucket.consume(key, policy).then((d) => d.allowed),
    RateLimiterRedis: library(fixed),
    BurstyRateLimiter: library(bursty),
  };
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));

/** The most timestamps (ms) within any span of `spanMs`. */
function maxInSpan(times: number[], spanMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= spanMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/**
 * The edge client: at t0, 17 requests (they open every window: a rate window of 16 and the burst pool); nothing
 * until t0 + 59.5 s; then 50 requests every 20 ms (2,500 a second) until t0 + 60.5 s, across the end of the
 * minute-long windows opened at t0. Each limiter gets the same requests on its own key, at the same moments.
 */
async function semantics(redis: Redis): Promise<void> {
  const perMinute = 1000;
  const burst = 100;
  const all = limiters(redis, `edge${Date.now()}`, tier(perMinute, burst));
  const admitted: Record<string, number[]> = Object.fromEntries(Object.keys(all).map((n) => [n, []]));
  const pending: Promise<void>[] = [];
  const fire = (count: number) => {
    for (const [name, decide] of Object.entries(all)) {
      for (let i = 0; i < count; i++) {
        pending.push(decide('client').then((ok) => void (ok && admitted[name]!.push(performance.now()))));
      }
    }
  };
  console.log(
    `semantics: ${perMinute} a minute, burst ${burst}; 17 requests at t0, then 50 every 20 ms from t0+59.5 s to t0+60.5 s (about 62 s)`,
  );
  const t0 = performance.now();
  fire(17);
  for (let tick = 0; tick < 50; tick++) {
    await sleepUntil(t0 + 59_500 + tick * 20);
    fire(50);
  }
  await Promise.all(pending);
  console.log(`  | limiter | admitted in all | most admitted in any 1 s |`);
  for (const [name, times] of Object.entries(admitted)) console.log(`  | ${name} | ${times.length} | ${maxInSpan(times, 1000)} |`);
}

/** Counts the commands the client sends to Redis (each is one round trip; ioredis pipelines concurrent ones). */
function countCommands(redis: Redis): () => number {
  let count = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...a: Parameters<Redis['sendCommand']>) => {
    count++;
    return send(...a);
  }) as Redis['sendCommand'];
  return () => count;
}

async function redisCpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)![1]);
  return Math.round((field('used_cpu_user') + field('used_cpu_sys')) * 1e6);
}

interface CostRound {
  client_us: number;
  redis_us: number;
  round_trips: number;
  wall_us: number;
}

/** `n` decisions over 1,000 keys, 32 in flight. */
async function costRound(redis: Redis, commands: () => number, decide: Decide, n: number, expect: boolean): Promise<CostRound> {
  const redisBefore = await redisCpuMicros(redis);
  const commandsBefore = commands();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      if ((await decide(`k${i % 1000}`)) !== expect) throw new Error(`decision ${i} was not ${expect ? 'admitted' : 'refused'}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  const wall = performance.now() - started;
  const client = cpuMicros(cpu);
  const trips = commands() - commandsBefore;
  const redisUsed = (await redisCpuMicros(redis)) - redisBefore;
  return { client_us: client / n, redis_us: redisUsed / n, round_trips: trips / n, wall_us: (wall * 1000) / n };
}

/** Median latency (µs) of decisions made one at a time. */
async function latency(decide: Decide, n: number): Promise<number> {
  const took: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await decide(`k${i % 1000}`);
    took.push((performance.now() - t) * 1000);
  }
  return median(took);
}

async function cost(redis: Redis): Promise<void> {
  const commands = countCommands(redis);
  const n = QUICK ? 5_000 : 20_000;
  const rounds = QUICK ? 3 : 7;
  // Admitted: a tier no request exhausts. Refused: one request an hour, spent by the warm-up.
  const hour = { points: 1, duration: 3600 };
  const scenarios = [
    { name: 'admitted', expect: true, all: limiters(redis, `open${Date.now()}`, tier(1e9, 1e9)) },
    {
      name: 'refused',
      expect: false,
      all: limiters(redis, `shut${Date.now()}`, { perMinute: 1 / 60, burst: 1, fixed: hour, rate: hour, pool: hour }),
    },
  ];
  for (const s of scenarios) {
    for (const decide of Object.values(s.all)) for (let i = 0; i < 3000; i++) await decide(`k${i % 1000}`); // warm-up, spends the refused tier
    const got: Record<string, CostRound[]> = Object.fromEntries(Object.keys(s.all).map((k) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      const names = Object.keys(s.all);
      for (const name of r % 2 ? names.reverse() : names) got[name]!.push(await costRound(redis, commands, s.all[name]!, n, s.expect));
    }
    console.log(`cost, ${s.name}: ${rounds} rounds of ${n} decisions over 1,000 keys, 32 in flight; median (min-max)`);
    console.log(`  | limiter | client CPU µs | Redis CPU µs | round trips | wall µs per decision | latency one at a time, µs |`);
    for (const [name, list] of Object.entries(got)) {
      const col = (k: keyof CostRound, digits = 0) =>
        summary(
          list.map((x) => x[k]),
          digits,
        ).text;
      const lat = await latency(s.all[name]!, QUICK ? 1000 : 3000);
      console.log(
        `  | ${name} | ${col('client_us')} | ${col('redis_us')} | ${col('round_trips', 2)} | ${col('wall_us')} | ${Math.round(lat)} |`,
      );
    }
  }
}

async function main() {
  printMachine('token bucket vs rate-limiter-flexible');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-rate-'));
  const server = await startRedis({ dir });
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  try {
    const info = await redis.info('server');
    console.log(`Redis ${/redis_version:(\S+)/.exec(info)?.[1]} on 127.0.0.1 (libs/devstack)`);
    if (!process.argv.includes('--semantics-only')) await cost(redis);
    if (!process.argv.includes('--cost-only')) await semantics(redis);
  } finally {
    redis.disconnect();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printMachine('at the end');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
