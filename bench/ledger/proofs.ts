// The Merkle proof benchmark (run it with `node bench/ledger/proofs.mjs`). See docs/benchmarks.md "Merkle proofs".
//
// Builds one stream of 1,000,000 facts quickly (a valid chain computed here with the ledger's own
// fact-hash code, bulk-inserted with unnest in chunks), stores its subtree nodes with the ledger's
// own filler code, then measures over HTTP: inclusion proofs of random facts at random tree sizes,
// checkpoints at random sizes, and consistency proofs between random sizes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApiKey, mintTenantId, type TenantId } from '@arbiter/auth';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createPool, newId } from '@arbiter/db';
import { databaseUrl, ensureDatabases, findFreePort, startPostgres, startRedis } from '@arbiter/devstack';
import { canonicalPayload } from '../../apps/ledger/src/domain/payload';
import { computeFactHash, GENESIS_PREV_HASH } from '../../apps/ledger/src/domain/fact-hash';
import { appendedStreamAnyTenant, MerkleRepository } from '../../apps/ledger/src/repositories/merkle.repository';
import { MerkleTree } from '../../apps/ledger/src/services/merkle-tree.service';

const ROOT = path.resolve(__dirname, '../../..');
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const FACTS = Number(arg('--facts') ?? 1_000_000);
const REQUESTS = Number(arg('--requests') ?? 2000);
const JSON_OUT = arg('--json');
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
const STREAM = 'proofs-bench';
const CHUNK = 10_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (x: number) => Math.round(x * 100) / 100;
const results: Record<string, unknown> = {};

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-proofs-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const children: ChildProcess[] = [];
  process.on('exit', () => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE'] as const) process.once(signal, () => process.exit(1));
  results.load_average_at_start = os.loadavg().map(round);
  log(
    `load average at start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (nproc ${os.cpus().length})`,
  );
  const pg = await startPostgres({ dataDir: path.join(dir, 'pg'), durable: true, settings: { max_connections: '200' } });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  try {
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_ledger']);
    const ledgerDb = databaseUrl(pg.url, 'arbiter_ledger');
    const adminKey = generateApiKey();
    const env = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_TOKEN,
      KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
      LOG_LEVEL: 'warn',
    };
    const registry = await startService(children, 'registry', {
      ...env,
      DATABASE_URL_REGISTRY: databaseUrl(pg.url, 'arbiter_registry'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
    });
    const ledger = await startService(children, 'ledger', { ...env, DATABASE_URL_LEDGER: ledgerDb, REGISTRY_URL: registry });
    const { tenantId, key } = await benchTenant(registry, adminKey);

    const pool = createPool({ url: ledgerDb, max: 4 });
    let started = performance.now();
    const factIds = await buildStream(pool, tenantId, FACTS);
    const buildSeconds = (performance.now() - started) / 1000;
    log(`built a chain of ${FACTS} facts and bulk-inserted it in ${buildSeconds.toFixed(1)} s`);
    started = performance.now();
    await new MerkleTree(new MerkleRepository(pool)).fill(appendedStreamAnyTenant({ tenantId, streamId: STREAM }), 0, FACTS);
    const fillSeconds = (performance.now() - started) / 1000;
    const { rows } = await pool.query<{ level: number; n: string }>(
      'SELECT level, count(*) AS n FROM merkle_nodes WHERE tenant_id = $1 AND stream_id = $2 GROUP BY level ORDER BY level',
      [tenantId, STREAM],
    );
    log(
      `stored ${rows.map((r) => `${r.n} nodes of level ${r.level}`).join(', ')} in ${fillSeconds.toFixed(1)} s (the filler's code, in this process)`,
    );
    results.stream = {
      facts: FACTS,
      build_seconds: round(buildSeconds),
      fill_seconds: round(fillSeconds),
      stored_nodes: Object.fromEntries(rows.map((r) => [r.level, Number(r.n)])),
    };
    await pool.end();

    const get = (p: string) => fetch(new URL(p, ledger), { headers: { 'x-api-key': key } });
    const random = (n: number) => Math.floor(Math.random() * n);
    // Warm-up: connections, prepared statements, the key ring.
    await measure('warm-up', 200, () => {
      const m = random(FACTS);
      return get(`/facts/${factIds[m]}/inclusion?tree_size=${m + 1 + random(FACTS - m)}`);
    });
    results.inclusion = await measure('inclusion proof, random fact, random tree size', REQUESTS, () => {
      const m = random(FACTS);
      return get(`/facts/${factIds[m]}/inclusion?tree_size=${m + 1 + random(FACTS - m)}`);
    });
    results.inclusion_current = await measure('inclusion proof, random fact, current size', REQUESTS / 2, () =>
      get(`/facts/${factIds[random(FACTS)]}/inclusion`),
    );
    results.checkpoint = await measure('checkpoint, random tree size', REQUESTS / 2, () =>
      get(`/streams/${STREAM}/checkpoint?tree_size=${1 + random(FACTS)}`),
    );
    results.consistency = await measure('consistency proof, random sizes', REQUESTS / 2, () => {
      const n = 1 + random(FACTS);
      return get(`/streams/${STREAM}/consistency?from=${1 + random(n)}&to=${n}`);
    });
    results.inclusion_c8 = await measure(
      'inclusion proof, random fact and size, 8 concurrent',
      REQUESTS,
      () => {
        const m = random(FACTS);
        return get(`/facts/${factIds[m]}/inclusion?tree_size=${m + 1 + random(FACTS - m)}`);
      },
      8,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await Promise.allSettled([pg.stop(), redis.stop()]);
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

/** A valid chain of `count` facts in one stream, computed with the ledger's fact-hash code and inserted in chunks. */
async function buildStream(pool: ReturnType<typeof createPool>, tenantId: TenantId, count: number): Promise<string[]> {
  const now = Date.now();
  const ids: string[] = [];
  let prevHash: string = GENESIS_PREV_HASH;
  let prevId: string | null = null;
  await pool.query(
    `INSERT INTO streams (stream_id, tenant_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms, created_at_ms, updated_at_ms) VALUES ($1, $2, 0, NULL, $3, 0, $4, $4)`,
    [STREAM, tenantId, GENESIS_PREV_HASH, now],
  );
  for (let start = 0; start < count; start += CHUNK) {
    const rows = {
      fact_id: [] as string[],
      seq: [] as number[],
      payload: [] as string[],
      prev_hash: [] as string[],
      fact_hash: [] as string[],
      parent: [] as Array<string | null>,
    };
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      const fact_id = newId('fct-');
      const payload = canonicalPayload({ order_id: `ord-${i}`, amount: 1250 + (i % 100), currency: 'EUR' });
      const fact_hash = computeFactHash(
        { fact_id, stream_id: STREAM, tenant_id: tenantId, actor: 'agent:bench', sealed_at_ms: now, prev_hash: prevHash },
        payload,
      );
      rows.fact_id.push(fact_id);
      rows.seq.push(i + 1);
      rows.payload.push(payload);
      rows.prev_hash.push(prevHash);
      rows.fact_hash.push(fact_hash);
      rows.parent.push(prevId);
      ids.push(fact_id);
      prevHash = fact_hash;
      prevId = fact_id;
    }
    await pool.query(
      `INSERT INTO facts (fact_id, stream_id, seq, tenant_id, actor, sealed_at_ms, custom_payload, prev_hash, fact_hash, parent_fact_id, client_ref)
       SELECT u.fact_id, $1, u.seq, $2, 'agent:bench', $3, u.payload::json, u.prev_hash, u.fact_hash, u.parent, NULL
         FROM unnest($4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(fact_id, seq, payload, prev_hash, fact_hash, parent)`,
      [STREAM, tenantId, now, rows.fact_id, rows.seq, rows.payload, rows.prev_hash, rows.fact_hash, rows.parent],
    );
  }
  await pool.query(
    `UPDATE streams SET head_seq = $3, head_fact_id = $4, head_hash = $5, head_sealed_at_ms = $6 WHERE tenant_id = $1 AND stream_id = $2`,
    [tenantId, STREAM, count, prevId, prevHash, now],
  );
  await pool.query('ANALYZE facts');
  return ids;
}

async function measure(label: string, total: number, one: () => Promise<Response>, concurrency = 1) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const res = await one();
        const body = await res.text();
        latencies.push(performance.now() - t0);
        if (!res.ok) throw new Error(`${label}: ${res.status} ${body}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const r = {
    requests: total,
    concurrency,
    per_second: Math.round(total / seconds),
    p50_ms: round(pct(50)),
    p90_ms: round(pct(90)),
    p99_ms: round(pct(99)),
    max_ms: round(latencies[latencies.length - 1]),
  };
  log(
    `${label}: p50 ${r.p50_ms} ms, p90 ${r.p90_ms} ms, p99 ${r.p99_ms} ms, max ${r.max_ms} ms (${total} requests, ${concurrency} at a time, ${r.per_second}/s)`,
  );
  return r;
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
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/livez`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer /livez within 30 s`);
}

/** A tenant whose rate limit is out of the way (enterprise override), and a read key. */
async function benchTenant(registry: string, adminKey: string): Promise<{ tenantId: TenantId; key: string }> {
  const call = async (pathname: string, body: unknown) => {
    const res = await fetch(new URL(pathname, registry), {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: `Bearer ${adminKey}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${pathname}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string; key: string }>;
  };
  const tenant = await call('/api/v1/tenants', {
    name: 'bench',
    slug: `bench-proofs-${Date.now()}`,
    settings: { rate_limit: { tier: 'enterprise', requests_per_minute: 100_000_000, burst: 10_000_000 } },
  });
  const principal = await call('/api/v1/principals', { kind: 'agent', name: 'bench', tenant_id: tenant.id });
  const key = await call('/api/v1/api-keys', { principal_id: principal.id, permissions: ['read'], tenant_id: tenant.id });
  return { tenantId: mintTenantId(tenant.id), key: key.key };
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
