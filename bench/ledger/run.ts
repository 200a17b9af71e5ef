// The ledger benchmark (run it with `node bench/ledger/bench.mjs`). See docs/benchmarks.md "Ledger".
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { generateApiKey, mintTenantId, type TenantId } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createPool, createPrismaClient, newId } from '@arbiter/db';
import { databaseUrl, ensureDatabases, findFreePort, startPostgres, startRedis } from '@arbiter/devstack';
import { canonicalPayload } from '../../apps/ledger/src/domain/payload';
import { computeFactHash, GENESIS_PREV_HASH } from '../../apps/ledger/src/domain/fact-hash';
import { LedgerRepository } from '../../apps/ledger/src/repositories/ledger.repository';
import { SealQueue } from '../../apps/ledger/src/services/seal-queue.service';
import { PrismaClient } from '../../apps/ledger/src/generated/prisma/client';

const ROOT = path.resolve(__dirname, '../../..');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
/** --only a,b runs some parts: seal16, seal1, service, floor, replicas, verify, breakdown. */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const wanted = (part: string) => !ONLY || ONLY.includes(part);
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
/** sealed_by of the facts this process seals through the seal queue directly (a principal id's shape). */
const BENCH_SEALER = 'agn-00000000000000000000bec4';

const results: Record<string, unknown> = {};
const log = (line: string) => process.stdout.write(`${line}\n`);

/** A ~200-byte business payload, like the facts an agent seals. */
const payloadFor = (i: number) => ({
  order_id: `ord-${i}`,
  amount: 1250 + (i % 100),
  currency: 'EUR',
  approved_by: 'agent:billing',
  lines: [{ sku: 'A-17', qty: 2 }],
  note: 'benchmark fact',
});

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const children: ChildProcess[] = [];
  // Whatever ends this process (Ctrl-C, a closed pipe, a crash) must not leave services running.
  let stopped = false;
  process.on('exit', () => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE'] as const) process.once(signal, () => process.exit(1));
  // Other work on the machine skews every figure: record how busy it was.
  results.load_average_at_start = os.loadavg().map(round);
  log(
    `load average at start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (nproc ${os.cpus().length})`,
  );
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_connections: '200' } });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  watched.push({ name: 'postgres', pid: pg.pid }, { name: 'redis', pid: redis.pid });
  process.on('exit', () => {
    if (stopped) return; // their pids may belong to someone else by now
    for (const pid of [pg.pid, redis.pid]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already stopped */
      }
    }
  });
  try {
    const settings = await pgSettings(pg.url);
    log(
      `PostgreSQL: fsync=${settings.fsync} synchronous_commit=${settings.synchronous_commit} wal_sync_method=${settings.wal_sync_method}`,
    );
    results.postgres = settings;
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_ledger']);
    const ledgerDb = databaseUrl(pg.url, 'arbiter_ledger');
    const adminKey = generateApiKey();
    const env = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    };
    const registry = await startService(children, 'registry', {
      ...env,
      DATABASE_URL_REGISTRY: databaseUrl(pg.url, 'arbiter_registry'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
    });
    // BENCH_SEAL_BATCH_MAX overrides the ledger's SEAL_BATCH_MAX (group commit size) for experiments.
    const ledgerEnv = {
      ...env,
      DATABASE_URL_LEDGER: ledgerDb,
      REGISTRY_URL: registry,
      ...(process.env.BENCH_SEAL_BATCH_MAX ? { SEAL_BATCH_MAX: process.env.BENCH_SEAL_BATCH_MAX } : {}),
      ...(process.env.BENCH_VERIFY_PAGE_SIZE ? { VERIFY_PAGE_SIZE: process.env.BENCH_VERIFY_PAGE_SIZE } : {}),
    };
    const ledger = await startService(children, 'ledger', ledgerEnv);
    const { tenantId, key } = await benchTenant(registry, adminKey);
    log(`registry ${registry}, ledger ${ledger} (LOG_LEVEL=${env.LOG_LEVEL})`);

    // --- HTTP seal throughput --------------------------------------------------------------------
    const n = QUICK ? 4000 : 20_000;
    await seals(ledger, key, tenantId, { label: 'warm-up', streams: 16, total: 2000, concurrency: 64 });
    if (wanted('seal16'))
      results.seal_16_streams = await seals(ledger, key, tenantId, {
        label: 'seal, 16 streams, 64 connections',
        streams: 16,
        total: n,
        concurrency: 64,
      });
    if (wanted('seal1')) {
      results.seal_1_stream = await seals(ledger, key, tenantId, {
        label: 'seal, 1 stream, 64 connections',
        streams: 1,
        total: n,
        concurrency: 64,
      });
      results.seal_1_stream_c16 = await seals(ledger, key, tenantId, {
        label: 'seal, 1 stream, 16 connections',
        streams: 1,
        total: n / 2,
        concurrency: 16,
      });
      results.seal_1_stream_sequential = await seals(ledger, key, tenantId, {
        label: 'seal, 1 stream, 1 connection',
        streams: 1,
        total: QUICK ? 500 : 2000,
        concurrency: 1,
      });
    }

    if (wanted('service')) {
      // The services' audit path (docs/ledger-formats.md "Service seals"): the worker relays batches
      // into one tenant's consultations stream through POST /internal/v1/seals.
      const facts = QUICK ? 20_000 : 100_000;
      const stream = `arbiter.${tenantId}.consultations`;
      await serviceBatches(ledger, tenantId, { label: 'warm-up', stream, total: 5000, batch: 500, concurrency: 4 });
      results.service_batch_1_stream = await serviceBatches(ledger, tenantId, {
        label: 'service batch, 1 stream, batches of 500, 4 requests in flight',
        stream,
        total: facts,
        batch: 500,
        concurrency: 4,
      });
      results.service_batch_1_stream_b1000 = await serviceBatches(ledger, tenantId, {
        label: 'service batch, 1 stream, batches of 1000, 2 requests in flight',
        stream,
        total: facts,
        batch: 1000,
        concurrency: 2,
      });
      results.service_batch_1_stream_b100 = await serviceBatches(ledger, tenantId, {
        label: 'service batch, 1 stream, batches of 100, 8 requests in flight',
        stream,
        total: facts / 2,
        batch: 100,
        concurrency: 8,
      });
      // Both at once: the relay at full speed while tenants seal over 16 streams.
      const [service, tenants] = await Promise.all([
        serviceBatches(ledger, tenantId, {
          label: 'mixed: service batch, 1 stream, batches of 500, 4 requests in flight',
          stream,
          total: facts / 2,
          batch: 500,
          concurrency: 4,
        }),
        seals(ledger, key, tenantId, { label: 'mixed: tenant seals, 16 streams, 64 connections', streams: 16, total: n, concurrency: 64 }),
      ]);
      results.mixed = { service, tenants };
    }

    if (wanted('floor')) {
      // The same HTTP stack without the ledger's work: auth, rate limit, logging, JSON, no database.
      results.whoami_floor = await seals(ledger, key, tenantId, {
        label: 'GET /v1/whoami (HTTP floor), 64 connections',
        streams: 1,
        total: n,
        concurrency: 64,
        path: () => '/v1/whoami',
      });
    }

    if (wanted('replicas')) {
      // Two ledger processes on one database, the load spread over both (as behind a load balancer).
      const second = await startService(children, 'ledger', ledgerEnv);
      results.seal_16_streams_2_replicas = await seals([ledger, second], key, tenantId, {
        label: 'seal, 16 streams, 64 connections, 2 ledger processes',
        streams: 16,
        total: n,
        concurrency: 64,
      });
      results.seal_1_stream_2_replicas = await seals([ledger, second], key, tenantId, {
        label: 'seal, 1 stream, 64 connections, 2 ledger processes',
        streams: 1,
        total: n,
        concurrency: 64,
      });
    }

    // --- verify ----------------------------------------------------------------------------------
    const pool = createPool({ url: ledgerDb, max: 4 });
    if (wanted('verify')) {
      const verifyFacts = QUICK ? 20_000 : 100_000;
      const preloaded = await preload(pool, tenantId, `verify-${verifyFacts}`, verifyFacts);
      log(`preloaded ${verifyFacts} facts into one stream in ${preloaded.toFixed(1)} s (in-process seal queue, batches of 1000)`);
      results.verify = await verify(ledger, key, `verify-${verifyFacts}`, verifyFacts);
    }

    // --- where the time goes -----------------------------------------------------------------------
    if (wanted('breakdown')) results.breakdown = await breakdown(ledgerDb, pool, tenantId);
    await pool.end();
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await Promise.allSettled([pg.stop(), redis.stop()]);
    stopped = true;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  results.load_average_at_end = os.loadavg().map(round);
  log(
    `load average at end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  results.machine = {
    nproc: os.cpus().length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    cpu: os.cpus()[0]?.model,
  };
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
}

async function pgSettings(url: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method')`);
  await c.end();
  return Object.fromEntries(rows.map((r) => [r.name, r.setting])) as Record<string, string>;
}

/** Runs dist/apps/<name>/main.js on a free port and resolves with its URL once /livez answers. */
async function startService(children: ChildProcess[], name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const port = await findFreePort();
  // BENCH_NODE_OPTIONS_LEDGER (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the ledger process.
  const nodeArgs = name === 'ledger' ? (process.env.BENCH_NODE_OPTIONS_LEDGER ?? '').split(' ').filter(Boolean) : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'dist', 'apps', name, 'main.js')], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  watched.push({ name: watched.some((w) => w.name === name) ? `${name}2` : name, pid: child.pid! });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer /livez within 30 s`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of our own services
async function api(url: string, method: string, pathname: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(new URL(pathname, url), {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A tenant whose rate limit is out of the way (enterprise override), and a seal+read key. */
async function benchTenant(registry: string, adminKey: string) {
  const auth = { Authorization: `Bearer ${adminKey}` };
  const tenant = await api(registry, 'POST', '/api/v1/tenants', auth, {
    name: 'bench',
    slug: `bench-${Date.now()}`,
    settings: { rate_limit: { tier: 'enterprise', requests_per_minute: 100_000_000, burst: 10_000_000 } },
  });
  const principal = await api(registry, 'POST', '/api/v1/principals', auth, { kind: 'agent', name: 'bench', tenant_id: tenant.id });
  const key = await api(registry, 'POST', '/api/v1/api-keys', auth, {
    principal_id: principal.id,
    permissions: ['seal', 'read'],
    tenant_id: tenant.id,
  });
  return { tenantId: mintTenantId(tenant.id as string), key: key.key as string };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU seconds (user + system) used so far by a process and its direct children (PostgreSQL backends). */
function cpuSeconds(pid: number): number {
  const ticks = (p: string) => {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
    } catch {
      return undefined;
    }
  };
  let total = ticks(String(pid))?.cpu ?? 0;
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const t = ticks(p);
    if (t && t.ppid === pid) total += t.cpu;
  }
  return total / 100; // USER_HZ
}

/** Who used the machine's CPU during a measurement, in CPU milliseconds per seal. */
const watched: Array<{ name: string; pid: number }> = [];
function cpuSnapshot() {
  return { self: process.cpuUsage(), procs: watched.map((w) => cpuSeconds(w.pid)) };
}
function cpuPerSeal(before: ReturnType<typeof cpuSnapshot>, count: number) {
  const after = cpuSnapshot();
  const self = process.cpuUsage(before.self);
  const out: Record<string, number> = { bench_client: round((self.user + self.system) / 1000 / count) };
  watched.forEach((w, i) => (out[w.name] = round(((after.procs[i] - before.procs[i]) * 1000) / count)));
  return out;
}

let runCounter = 0;

/** `total` seals from `concurrency` keep-alive connections, spread round-robin over `streams` streams. */
async function seals(
  urls: string | string[],
  key: string,
  tenantId: TenantId,
  o: { label: string; streams: number; total: number; concurrency: number; path?: (i: number) => string },
) {
  const run = ++runCounter;
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const targets = (Array.isArray(urls) ? urls : [urls]).map((u) => new URL(u));
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const get = o.path !== undefined;
      const body = get ? '' : JSON.stringify({ tenant_id: tenantId, actor: 'agent:bench', custom_payload: payloadFor(i) });
      const started = performance.now();
      const { hostname, port } = targets[i % targets.length];
      const headers: http.OutgoingHttpHeaders = { 'x-api-key': key };
      if (!get) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: get ? 'GET' : 'POST',
          path: get ? o.path!(i) : `/streams/run${run}-s${i % o.streams}/facts`,
          headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            if (res.statusCode !== (get ? 200 : 201)) failures++;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const cpuBefore = cpuSnapshot();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < o.total) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu_ms_per_seal = cpuPerSeal(cpuBefore, o.total);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const r = {
    seals: o.total,
    streams: o.streams,
    concurrency: o.concurrency,
    seconds: round(seconds),
    per_second: Math.round(o.total / seconds),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    failures,
    cpu_ms_per_seal,
  };
  log(`${o.label}: ${r.per_second} seals/s (${o.total} in ${r.seconds} s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, failures ${failures})`);
  log(
    `  CPU ms per seal: ${Object.entries(cpu_ms_per_seal)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return r;
}

let batchCounter = 0;

/** A consultation's audit payload, as the verdict service seals it (docs/ledger-formats.md "Service seals"). */
const auditPayload = (ref: string) => ({
  consultation_id: ref,
  normative_hash: `sha256:${'ab'.repeat(32)}`,
  context_hash: `sha256:${'cd'.repeat(32)}`,
  verdict: 'allowed',
  signing_kid: 'verdict:2026',
  decided_at: '2026-12-01T00:00:00.000Z',
});

/** `total` audit facts into one stream through POST /internal/v1/seals, `batch` per request, `concurrency` requests in flight. */
async function serviceBatches(
  url: string,
  tenantId: TenantId,
  o: { label: string; stream: string; total: number; batch: number; concurrency: number },
) {
  const run = ++batchCounter;
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const { hostname, port } = new URL(url);
  const latencies: number[] = [];
  const requests = Math.ceil(o.total / o.batch);
  let next = 0;
  let failures = 0;
  const one = (r: number) =>
    new Promise<void>((resolve, reject) => {
      const seals = Array.from({ length: Math.min(o.batch, o.total - r * o.batch) }, (_, i) => {
        const ref = `cns-b${run}-${r * o.batch + i}`;
        return { stream_id: o.stream, tenant_id: tenantId, actor: 'service:verdict', custom_payload: auditPayload(ref), client_ref: ref };
      });
      const body = JSON.stringify({ seals });
      const started = performance.now();
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: '/internal/v1/seals',
          headers: { 'x-internal-token': INTERNAL_TOKEN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            latencies.push(performance.now() - started);
            const answer =
              res.statusCode === 200 ? (JSON.parse(text) as { results: Array<{ ok: boolean; created?: boolean }> }) : undefined;
            if (!answer || answer.results.length !== seals.length || !answer.results.every((x) => x.ok && x.created)) failures++;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const cpuBefore = cpuSnapshot();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < requests) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu_ms_per_fact = cpuPerSeal(cpuBefore, o.total);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const r = {
    facts: o.total,
    batch: o.batch,
    concurrency: o.concurrency,
    seconds: round(seconds),
    facts_per_second: Math.round(o.total / seconds),
    request_p50_ms: round(percentile(latencies, 50)),
    request_p99_ms: round(percentile(latencies, 99)),
    failed_requests: failures,
    cpu_ms_per_fact,
  };
  log(
    `${o.label}: ${r.facts_per_second} facts/s (${o.total} in ${r.seconds} s, request p50 ${r.request_p50_ms} ms, p99 ${r.request_p99_ms} ms, failed requests ${failures})`,
  );
  log(
    `  CPU ms per fact: ${Object.entries(cpu_ms_per_fact)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return r;
}

/** Fills one stream quickly through the service's own seal queue (big batches), for the verify benchmark. */
async function preload(pool: ReturnType<typeof createPool>, tenantId: TenantId, streamId: string, count: number): Promise<number> {
  const queue = new SealQueue(pool, new LedgerRepository(pool), { maxBatch: 1000 });
  const started = performance.now();
  for (let done = 0; done < count; done += 5000) {
    const size = Math.min(5000, count - done);
    await Promise.all(
      Array.from({ length: size }, (_, i) =>
        queue.seal({
          tenantId,
          streamId,
          actor: 'agent:bench',
          sealedBy: BENCH_SEALER,
          payloadText: canonicalPayload(payloadFor(done + i)),
          clientRef: null,
        }),
      ),
    );
  }
  return (performance.now() - started) / 1000;
}

async function verify(url: string, key: string, streamId: string, count: number) {
  const out: Array<{ seconds: number }> = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const body = await api(url, 'POST', `/streams/${streamId}/verify`, { 'x-api-key': key });
    const seconds = (performance.now() - started) / 1000;
    if (!body.valid || body.facts_verified !== count) throw new Error(`verify failed: ${JSON.stringify(body)}`);
    out.push({ seconds });
  }
  const best = Math.min(...out.map((o) => o.seconds));
  const r = {
    facts: count,
    runs_seconds: out.map((o) => round(o.seconds)),
    best_seconds: round(best),
    facts_per_second: Math.round(count / best),
  };
  log(`verify ${count} facts over HTTP: ${r.runs_seconds.join(' s, ')} s (best ${r.facts_per_second} facts/s)`);
  return r;
}

/** Costs behind a seal, measured separately: hashing, Prisma against raw pg, fsync, batching. */
async function breakdown(ledgerDb: string, pool: ReturnType<typeof createPool>, tenantId: TenantId) {
  const out: Record<string, unknown> = {};
  // 1. CPU of validation + canonical JSON + hash per fact.
  const iterations = 50_000;
  let started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const text = canonicalPayload(payloadFor(i));
    computeFactHash(
      {
        fact_id: 'fct-000000000000000000000000',
        stream_id: 's',
        tenant_id: tenantId,
        actor: 'agent:bench',
        sealed_by: BENCH_SEALER,
        sealed_at_ms: i,
        prev_hash: GENESIS_PREV_HASH,
      },
      text,
    );
  }
  out.canonical_and_hash_us = round(((performance.now() - started) * 1000) / iterations);
  log(`canonical JSON + sha256 of one fact: ${out.canonical_and_hash_us} µs`);

  // 2. One row per transaction (autocommit): Prisma vs raw pg, synchronous_commit on and off.
  const rows = QUICK ? 500 : 2000;
  const prisma = createPrismaClient(PrismaClient, pool);
  const stream = async (id: string) => {
    await pool.query(`INSERT INTO streams (stream_id, tenant_id, head_hash, created_at_ms, updated_at_ms) VALUES ($1, $2, $3, 0, 0)`, [
      id,
      tenantId,
      GENESIS_PREV_HASH,
    ]);
    return id;
  };
  const row = (streamId: string, seq: number) => ({
    fact_id: newId('fct-'),
    stream_id: streamId,
    seq: BigInt(seq),
    tenant_id: tenantId,
    actor: 'agent:bench',
    sealed_at_ms: BigInt(seq),
    custom_payload: payloadFor(seq),
    prev_hash: GENESIS_PREV_HASH,
    fact_hash: GENESIS_PREV_HASH,
    parent_fact_id: null,
    client_ref: null,
  });
  const prismaStream = await stream('bd-prisma');
  started = performance.now();
  for (let i = 1; i <= rows; i++) await prisma.fact.create({ data: row(prismaStream, i) });
  out.prisma_insert_per_second = Math.round(rows / ((performance.now() - started) / 1000));
  const insertSql = `INSERT INTO facts (fact_id, stream_id, seq, tenant_id, actor, sealed_at_ms, custom_payload, prev_hash, fact_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
  const pgInsert = async (client: { query: Client['query'] }, streamId: string) => {
    const t0 = performance.now();
    for (let i = 1; i <= rows; i++) {
      const r = row(streamId, i);
      await client.query(insertSql, [
        r.fact_id,
        streamId,
        i,
        tenantId,
        r.actor,
        i,
        JSON.stringify(r.custom_payload),
        r.prev_hash,
        r.fact_hash,
      ]);
    }
    return Math.round(rows / ((performance.now() - t0) / 1000));
  };
  out.pg_insert_per_second = await pgInsert(pool, await stream('bd-pg'));
  const noSync = new Client({ connectionString: ledgerDb });
  await noSync.connect();
  await noSync.query('SET synchronous_commit = off');
  out.pg_insert_no_sync_per_second = await pgInsert(noSync, await stream('bd-pg-nosync'));
  await noSync.end();
  log(
    `one INSERT per transaction, sequential: Prisma ${out.prisma_insert_per_second}/s, pg ${out.pg_insert_per_second}/s, pg with synchronous_commit=off ${out.pg_insert_no_sync_per_second}/s`,
  );

  // 3. The seal queue alone (no HTTP): sequential appends vs concurrent (group commit).
  const queue = new SealQueue(pool, new LedgerRepository(pool), { maxBatch: 256 });
  const seal = (streamId: string, i: number) =>
    queue.seal({
      tenantId,
      streamId,
      actor: 'agent:bench',
      sealedBy: BENCH_SEALER,
      payloadText: canonicalPayload(payloadFor(i)),
      clientRef: null,
    });
  started = performance.now();
  for (let i = 0; i < rows; i++) await seal('bd-seq', i);
  out.queue_sequential_per_second = Math.round(rows / ((performance.now() - started) / 1000));
  const burst = QUICK ? 5000 : 20_000;
  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < burst) await seal('bd-group', next++);
    }),
  );
  out.queue_64_concurrent_one_stream_per_second = Math.round(burst / ((performance.now() - started) / 1000));
  log(
    `seal queue without HTTP, one stream: 1 at a time ${out.queue_sequential_per_second}/s, 64 concurrent ${out.queue_64_concurrent_one_stream_per_second}/s (group commit)`,
  );
  await prisma.$disconnect();
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
