// The scale benchmark (run it with `node bench/scale/bench.mjs [--quick]`; docs/benchmarks.md "Scale: partitions,
// retention and archive"). See bench/scale/bench.mjs for what it does and its options.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'pg';
import { generateApiKey } from '@arbiter/auth';
import { ArchiveSegmentStore, PartitionMaintenance } from '@arbiter/db';
import { databaseUrl, ensureDatabases, startPostgres, startRedis } from '@arbiter/devstack';
import {
  api,
  benchTenant,
  log,
  machine,
  pgSettings,
  preflight,
  serviceEnv,
  startService,
  stopBench,
  treeCpuSeconds,
} from '../verdict/harness';
import {
  DAY_MS,
  keepUntilRange,
  num,
  parseScaleArgs,
  PAST_DAYS,
  quantile,
  reportTable,
  seedSpans,
  type ReportRow,
  type SeedSpan,
} from './plan';
import { verdictTables } from '../../apps/verdict/src/partitions';
import { copySpan, makePartitions, templatesOf } from './seed';

const ROOT = path.resolve(__dirname, '../../..');
const INTERNAL_TOKEN = 'bench-internal-token-0123456789';
const opts = parseScaleArgs(process.argv.slice(2));
const results: Record<string, unknown> = { options: opts };
const report: ReportRow[] = [];

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

async function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; body: unknown }> {
  const t0 = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  const text = await res.text();
  const ms = seconds(t0) * 1000;
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

async function internal(base: string, pathname: string): Promise<{ ms: number; body: unknown }> {
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}${pathname}`, { method: 'POST', headers: { 'x-internal-token': INTERNAL_TOKEN } });
  const text = await res.text();
  const ms = seconds(t0) * 1000;
  if (res.status !== 200) throw new Error(`POST ${pathname}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

/** The first page of the consultations list (default limit 50), `requests` times in a row, per round. */
async function firstPages(verdict: string, tenant: { id: string; key: string }, label: string) {
  const url = `${verdict}/${tenant.id}/v1/consultations`;
  const headers = { 'x-api-key': tenant.key };
  for (let i = 0; i < 20; i++) await timedGet(url, headers); // warm-up
  const rounds: Array<{ p50_ms: number; p99_ms: number; max_ms: number; requests: number }> = [];
  for (let r = 0; r < opts.rounds; r++) {
    const ms: number[] = [];
    for (let i = 0; i < opts.pageRequests; i++) {
      const { ms: one, body } = await timedGet(url, headers);
      if ((body as { items: unknown[] }).items.length !== 50)
        throw new Error(`${label}: a first page of ${(body as { items: unknown[] }).items.length}`);
      ms.push(one);
    }
    rounds.push({ p50_ms: quantile(ms, 0.5), p99_ms: quantile(ms, 0.99), max_ms: Math.max(...ms), requests: ms.length });
    log(`  first page, ${label}, round ${r + 1}: ${JSON.stringify(rounds[r])}`);
  }
  return rounds;
}

/** Every consultation of one UTC day through the list, pages of 1,000 by cursor (the verdict half of an audit). */
async function dayList(verdict: string, tenant: { id: string; key: string }, day: string, expected: number) {
  const runs: Array<{ seconds: number; rows: number; pages: number; rows_per_second: number }> = [];
  for (let r = 0; r < opts.rounds; r++) {
    const t0 = process.hrtime.bigint();
    let cursor: string | null = null;
    let rows = 0;
    let pages = 0;
    do {
      const q = new URLSearchParams({ since: day, until: day, limit: '1000', ...(cursor ? { cursor } : {}) });
      const { body } = await timedGet(`${verdict}/${tenant.id}/v1/consultations?${q}`, { 'x-api-key': tenant.key });
      const page = body as { items: unknown[]; next_cursor: string | null };
      rows += page.items.length;
      pages++;
      cursor = page.next_cursor;
    } while (cursor);
    const s = seconds(t0);
    if (rows !== expected) throw new Error(`day list: ${rows} rows, expected ${expected}`);
    runs.push({ seconds: s, rows, pages, rows_per_second: rows / s });
    log(`  day list ${day}, round ${r + 1}: ${JSON.stringify(runs[r])}`);
  }
  return runs;
}

/** A simulation over the newest 100,000 consultations (a blocking rule on the busiest action), through the API. */
async function simulations(verdict: string, registry: string, tenant: { id: string }, managerKey: string, pool: Pool, today: number) {
  const { rows: top } = await pool.query<{ action: string }>(
    `SELECT action FROM consultations WHERE tenant_id = $1 AND requested_at >= $2 GROUP BY action ORDER BY count(*) DESC LIMIT 1`,
    [tenant.id, new Date(today - DAY_MS)],
  );
  const state = (await fetch(`${registry}/internal/v1/tenants/${tenant.id}/state`, {
    headers: { 'x-internal-token': INTERNAL_TOKEN },
  }).then((r) => r.json())) as { scopes: Array<{ id: string; selector: object }> };
  const scope = state.scopes.find((s) => Object.keys(s.selector).length === 0) ?? state.scopes[0];
  const body = JSON.stringify({
    changes: [
      {
        op: 'create',
        rule: {
          scope_id: scope.id,
          directive: 'Benchmark: block the busiest action',
          severity: 'MANDATORY',
          applies_to: { actions: [top[0].action] },
          conditions: [{ field: 'action', op: 'eq', value: top[0].action }],
        },
      },
    ],
    window: { since: new Date(today - 60 * DAY_MS).toISOString(), last: 100_000 },
  });
  const runs: Array<{ seconds: number; evaluated: number; changed: number; rows_per_second: number }> = [];
  for (let r = 0; r < opts.rounds; r++) {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${verdict}/${tenant.id}/v1/simulations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': managerKey },
      body,
    });
    const text = await res.text();
    const s = seconds(t0);
    if (res.status !== 200) throw new Error(`simulation: ${res.status} ${text.slice(0, 300)}`);
    const answer = JSON.parse(text) as { evaluated: number; changed: number };
    runs.push({ seconds: s, evaluated: answer.evaluated, changed: answer.changed, rows_per_second: answer.evaluated / s });
    log(`  simulation, round ${r + 1}: ${JSON.stringify(runs[r])}`);
  }
  return runs;
}

/**
 * Checks of a tenant on `lanes` connections, each lane one check after another, until stopped: when each started and
 * how long it took (ms). Run during the drops: a drop detaches its partition under a lock on the whole table.
 */
function checksUnderway(verdict: string, tenant: { id: string; key: string; bodies: string[] }, lanes = 4) {
  const samples: Array<{ at: number; ms: number }> = [];
  let stopped = false;
  const runs = Array.from({ length: lanes }, async (_, lane) => {
    for (let i = lane; !stopped; i++) {
      const at = performance.now();
      const res = await fetch(`${verdict}/${tenant.id}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.key },
        body: tenant.bodies[i % tenant.bodies.length],
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`a check during the drops: ${res.status} ${text.slice(0, 300)}`);
      samples.push({ at, ms: performance.now() - at });
    }
  });
  return {
    samples,
    stop: async () => {
      stopped = true;
      await Promise.all(runs);
    },
  };
}

/** Bytes on disk of every partition of consultations (main fork, TOAST and maps, indexes) over their rows. */
async function bytesOnDisk(pool: Pool) {
  const { rows } = await pool.query<{ partitions: number; main: string; toast: string; indexes: string; total: string }>(
    `SELECT count(*)::int AS partitions,
            sum(pg_relation_size(p.oid))::text AS main,
            sum(pg_table_size(p.oid) - pg_relation_size(p.oid))::text AS toast,
            sum(pg_indexes_size(p.oid))::text AS indexes,
            sum(pg_total_relation_size(p.oid))::text AS total
       FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = 'consultations'::regclass`,
  );
  const { rows: count } = await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM consultations');
  // ANALYZE's mean width of the stored record (stored uncompressed: its text's length).
  const { rows: width } = await pool.query<{ w: number }>(
    `SELECT avg_width AS w FROM pg_stats WHERE tablename = 'consultations' AND attname = 'record' AND inherited`,
  );
  const r = rows[0];
  const n = Number(count[0].n);
  const per = (x: string) => Number(x) / n;
  return {
    partitions: r.partitions,
    rows: n,
    total_bytes: Number(r.total),
    per_row: { main: per(r.main), toast_and_maps: per(r.toast), indexes: per(r.indexes), total: per(r.total) },
    mean_record_bytes: width[0]?.w ?? NaN,
  };
}

interface ArchiveLine {
  partition: string;
  rows: number;
  seconds: number;
  rss_before_mb: number;
  rss_peak_mb: number;
  heap_before_mb: number;
  heap_peak_mb: number;
  /** [rows streamed, MB of heap used after a full GC] every 2,500 rows, and once the partition is done. */
  live_heap_mb: Array<[number, number]>;
}

/** The worker's archive step in a process of its own (bench/scale/archive-step.ts), over the partitions in order. */
async function archiveStep(partitions: string[], env: NodeJS.ProcessEnv): Promise<ArchiveLine[]> {
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', path.join(ROOT, 'dist/bench/scale/archive-step.js'), ...partitions], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const archived: ArchiveLine[] = [];
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const l of lines.filter(Boolean)) {
      log(`  archive step: ${l}`);
      archived.push(JSON.parse(l) as ArchiveLine);
    }
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`archive step exited with ${code}`);
  return archived;
}

/** The live heap samples in print: the first, the largest and the last while streaming, then after the partition. */
function liveSummary(samples: Array<[number, number]>): string {
  const during = samples.slice(0, -1);
  const after = samples[samples.length - 1];
  if (during.length === 0) return `after ${num(after[1])} MB`;
  const max = during.reduce((m, s) => (s[1] > m[1] ? s : m));
  const last = during[during.length - 1];
  return `${num(during[0][1])} MB at ${num(during[0][0])}, max ${num(max[1])} MB at ${num(max[0])}, ${num(last[1])} MB at ${num(last[0])}; after ${num(after[1])} MB`;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : e.name.endsWith('.jsonl.gz') ? fs.statSync(p).size : 0;
  }
  return total;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-scale-bench-'));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user, which must traverse this folder
  const archiveDir = path.join(dir, 'archive');
  fs.mkdirSync(archiveDir);
  const children: ChildProcess[] = [];
  const pg = await startPostgres({
    dataDir: path.join(dir, 'pg'),
    durable: true,
    settings: { max_connections: '100', max_wal_size: '4GB' },
  });
  const redis = await startRedis({ dir: path.join(dir, 'redis') });
  let pool: Pool | undefined;
  try {
    results.machine = machine();
    results.postgres = { ...(await pgSettings(pg.url)), max_wal_size: '4GB' };
    log(`machine: ${JSON.stringify(results.machine)}`);
    await ensureDatabases(pg.url, ['arbiter_registry', 'arbiter_verdict', 'arbiter_ledger']);
    const adminKey = generateApiKey();
    const env = { ...serviceEnv(redis.url, INTERNAL_TOKEN), PARTITION_INTERVAL: '1d' };
    // Each service applies its migrations to its fresh database as it starts.
    const registry = await startService(children, 'registry', path.join(ROOT, 'dist/apps/registry/main.js'), {
      ...env,
      DATABASE_URL_REGISTRY: databaseUrl(pg.url, 'arbiter_registry'),
      BOOTSTRAP_ADMIN_KEY: adminKey,
      LEDGER_SEALING: 'false',
    });
    const ledger = await startService(children, 'ledger', path.join(ROOT, 'dist/apps/ledger/main.js'), {
      ...env,
      DATABASE_URL_LEDGER: databaseUrl(pg.url, 'arbiter_ledger'),
      REGISTRY_URL: registry,
    });
    const verdictDb = databaseUrl(pg.url, 'arbiter_verdict');
    const archiveUrl = pathToFileURL(archiveDir).href;
    const verdict = await startService(children, 'verdict', path.join(ROOT, 'dist/apps/verdict/main.js'), {
      ...env,
      DATABASE_URL_VERDICT: verdictDb,
      REGISTRY_URL: registry,
      LEDGER_URL: ledger,
      LEDGER_SEALING: 'false',
      ARCHIVE_URL: archiveUrl,
      // A guard on one evaluation's wall time: on a busy shared machine a replay can be preempted past the 50 ms
      // default and fail the whole simulation; the bench measures throughput, not that guard.
      EVALUATION_BUDGET_MS: '2000',
    });
    pool = new Pool({ connectionString: verdictDb, max: 4 });

    // The tenants, through the registry API, each with its retention of consultations.
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const spans = seedSpans(opts.consultations, today, opts.pastRows);
    const rateLimit = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };
    const tenants = new Map<SeedSpan['tenant'], Awaited<ReturnType<typeof benchTenant>>>();
    for (const span of spans) {
      if (tenants.has(span.tenant)) continue; // the big tenant's spans of its own past days
      const t = await benchTenant(registry, adminKey, span.tenant === 'big' ? 100 : 10, {
        ...rateLimit,
        retention: { consultations: span.retention },
      });
      tenants.set(span.tenant, t);
      await preflight(verdict, t); // one real check per fixture request: the records to copy
    }
    const big = tenants.get('big')!;
    const manager = await api(
      registry,
      'POST',
      '/api/v1/api-keys',
      { Authorization: `Bearer ${adminKey}` },
      {
        principal_id: big.principalId,
        permissions: ['manage_rules'],
        tenant_id: big.id,
      },
    );

    // The partitions, then the records: the real ones are the templates and are removed (their times are now).
    const templates = new Map<string, Awaited<ReturnType<typeof templatesOf>>>();
    for (const [, t] of tenants) templates.set(t.id, await templatesOf(pool, t.id));
    await pool.query('DELETE FROM consultations WHERE tenant_id = ANY($1)', [[...tenants.values()].map((t) => t.id)]);
    let t0 = process.hrtime.bigint();
    const range = keepUntilRange(spans, DAY_MS);
    await makePartitions(pool, range);
    const ahead = await internal(verdict, '/internal/v1/maintenance/partitions'); // the gateway's route: the partitions ahead of now
    log(`  partitions made in ${seconds(t0).toFixed(1)} s`);
    const seq = { next: 1 };
    t0 = process.hrtime.bigint();
    let seeded = 0;
    for (const span of spans) {
      const t = tenants.get(span.tenant)!;
      const s0 = process.hrtime.bigint();
      const n = await copySpan(pool, span, t.id, templates.get(t.id)!, seq);
      seeded += n;
      log(`  COPY ${span.tenant}: ${n} rows in ${seconds(s0).toFixed(1)} s`);
    }
    const copySeconds = seconds(t0);
    t0 = process.hrtime.bigint();
    await pool.query('VACUUM ANALYZE consultations');
    const vacuumSeconds = seconds(t0);
    results.seed = {
      rows: seeded,
      copy_seconds: copySeconds,
      rows_per_second: seeded / copySeconds,
      vacuum_analyze_seconds: vacuumSeconds,
    };
    log(`seed: ${JSON.stringify(results.seed)}`);
    report.push({
      measure: 'seed: COPY FROM STDIN (pg-copy-streams), then VACUUM ANALYZE',
      figures: `${num(seeded)} rows in ${num(copySeconds)} s (${num(seeded / copySeconds)} rows/s); VACUUM ANALYZE ${num(vacuumSeconds)} s`,
    });
    const disk = await bytesOnDisk(pool);
    results.bytes_on_disk = disk;
    log(`bytes on disk: ${JSON.stringify(disk)}`);

    // The list: the first page, then a whole day.
    const pages = await firstPages(verdict, big, 'big tenant');
    const small = tenants.get('quarter')!;
    const smallPages = await firstPages(verdict, small, 'small tenant');
    results.first_page = { big: pages, small: smallPages };
    const range3 = (rs: Array<Record<string, number>>, k: string) => {
      const v = rs.map((r) => r[k]);
      return Math.min(...v) === Math.max(...v) ? num(v[0]) : `${num(Math.min(...v))}-${num(Math.max(...v))}`;
    };
    report.push({
      measure: `first page of the list (GET /{tenant}/v1/consultations, 50 newest), big tenant: ${opts.pageRequests} requests a round, ${opts.rounds} rounds`,
      figures: `p50 ${range3(pages, 'p50_ms')} ms, p99 ${range3(pages, 'p99_ms')} ms`,
    });
    report.push({
      measure: 'the same, a small tenant (sharing the partitions)',
      figures: `p50 ${range3(smallPages, 'p50_ms')} ms, p99 ${range3(smallPages, 'p99_ms')} ms`,
    });
    const day = new Date(today - 45 * DAY_MS).toISOString().slice(0, 10);
    const { rows: inDay } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM consultations WHERE tenant_id = $1 AND requested_at >= $2 AND requested_at < $3`,
      [big.id, new Date(today - 45 * DAY_MS), new Date(today - 44 * DAY_MS)],
    );
    const days = await dayList(verdict, big, day, inDay[0].n);
    results.day_list = { day, runs: days };
    report.push({
      measure: `a day's audit: the list of one UTC day (${day}), pages of 1,000 by cursor`,
      figures: `${num(inDay[0].n)} rows in ${range3(days, 'seconds')} s (${range3(days, 'rows_per_second')} rows/s)`,
    });
    const sims = await simulations(verdict, registry, big, manager.key as string, pool, today);
    results.simulation = sims;
    report.push({
      measure: 'simulation over the newest 100,000 (POST /{tenant}/v1/simulations, last: 100000)',
      figures: `${num(sims[0].evaluated)} replayed in ${range3(sims, 'seconds')} s (${range3(sims, 'rows_per_second')} rows/s)`,
    });

    // The past partitions: archived by the worker's archive step, then dropped through the gateway's route.
    const due = (ahead.body as { due: Array<{ table: string; partition: string }> }).due.filter((d) => d.table === 'consultations');
    const counts = await pool.query<{ partition: string; n: number; short: boolean }>(
      `SELECT c.tableoid::regclass::text AS partition, count(*)::int AS n, bool_and(c.tenant_id = $2) AS short
         FROM consultations c WHERE keep_until < $1 GROUP BY 1`,
      [new Date(today), tenants.get('short')!.id],
    );
    const sizeOf = new Map(counts.rows.map((r) => [r.partition, r.n]));
    // Small: the partitions holding only the 1-day tenant's records; large: a day of the big tenant's each.
    const isShort = new Map(counts.rows.map((r) => [r.partition, r.short]));
    const smallOnes = due.filter((d) => isShort.get(d.partition) === true).map((d) => d.partition);
    const largeOnes = due.filter((d) => isShort.get(d.partition) === false).map((d) => d.partition);
    if (smallOnes.length !== PAST_DAYS || largeOnes.length !== PAST_DAYS) throw new Error(`due partitions: ${JSON.stringify(counts.rows)}`);
    const order = smallOnes.flatMap((s, i) => [s, largeOnes[i]]);
    const cpu0 = treeCpuSeconds(pg.pid);
    const archived = await archiveStep(order, {
      PATH: process.env.PATH,
      ARCHIVE_URL: archiveUrl,
      VERDICT_URL: verdict,
      REGISTRY_URL: registry,
      LEDGER_URL: ledger,
      INTERNAL_TOKEN,
    });
    results.archive = { partitions: archived, postgres_cpu_seconds: treeCpuSeconds(pg.pid) - cpu0, segment_bytes: dirBytes(archiveDir) };
    for (const [label, names] of [
      ['small', smallOnes],
      ['large', largeOnes],
    ] as const) {
      const lines = archived.filter((a) => names.includes(a.partition));
      report.push({
        measure: `archive step, ${label} partitions (${names.length}): rows/s; archiving process RSS and heap, before → peak`,
        figures: lines
          .map(
            (a) =>
              `${num(a.rows)} rows: ${num(a.rows / a.seconds)} rows/s, RSS ${num(a.rss_before_mb)} → ${num(a.rss_peak_mb)} MB, ` +
              `heap ${num(a.heap_before_mb)} → ${num(a.heap_peak_mb)} MB`,
          )
          .join('; '),
      });
      report.push({
        measure: `archive step, ${label} partitions: live heap (after a full GC) while streaming, every 2,500 rows: first, max, last sample; after`,
        figures: lines.map((a) => `${num(a.rows)} rows: ${liveSummary(a.live_heap_mb)}`).join('; '),
      });
    }
    const archivedRows = archived.reduce((s, a) => s + a.rows, 0);
    report.push({
      measure: 'archive segments on disk (gzip JSON Lines)',
      figures: `${num((results.archive as { segment_bytes: number }).segment_bytes / archivedRows)} bytes per consultation`,
    });
    // The gateway's drop (libs/db PartitionMaintenance over its table definition and its archive gate, what
    // POST /internal/v1/maintenance/partitions/<p>/drop runs), here in the bench's process so that its two steps are
    // timed apart: the first holds the table's lock, the second drops the retired table.
    const steps = new Map<string, { detach: number; drop: number | null }>();
    const maintenance = new PartitionMaintenance({
      pool,
      tables: verdictTables({ RESOLVE_SESSION_TTL_S: 86_400 }),
      intervalMs: DAY_MS,
      archiveGate: new ArchiveSegmentStore(pool, ['consultations']),
      hooks: { dropSteps: (_table, partition, ms) => steps.set(partition, ms) },
    });
    const drops: Array<{
      partition: string;
      rows: number;
      ms: number;
      detach_ms: number;
      drop_ms: number | null;
      gate_count_ms: number;
      slowest_check_ms: number;
    }> = [];
    const checks = checksUnderway(verdict, big);
    const windows: Array<{ from: number; to: number }> = [];
    const pause = () => new Promise((r) => setTimeout(r, 1_000)); // checks alone between drops: the baseline
    await pause();
    for (const p of order) {
      // The part of a drop that reads the partition: the archive gate counts its rows per tenant (libs/db
      // ArchiveSegmentStore.covered); timed alone here with the same grouping, just before the drop.
      const g0 = process.hrtime.bigint();
      await pool.query(`SELECT tenant_id, count(*)::int AS n FROM "${p}" GROUP BY tenant_id`);
      const gateCountMs = seconds(g0) * 1000;
      const from = performance.now();
      const answer = await maintenance.drop(p);
      const to = performance.now();
      windows.push({ from, to });
      const step = steps.get(p);
      if (!answer.dropped || !step) throw new Error(`drop ${p}: ${JSON.stringify(answer)}`);
      await pause();
      const during = checks.samples.filter((c) => c.at < to && c.at + c.ms > from).map((c) => c.ms);
      const slowest = during.length ? Math.max(...during) : 0;
      const ms = to - from;
      drops.push({
        partition: p,
        rows: sizeOf.get(p) ?? 0,
        ms,
        detach_ms: step.detach,
        drop_ms: step.drop,
        gate_count_ms: gateCountMs,
        slowest_check_ms: slowest,
      });
      log(
        `  drop ${p} (${sizeOf.get(p)} rows): ${ms.toFixed(1)} ms; detach and retire ${step.detach.toFixed(1)} ms, drop of the retired ` +
          `table ${step.drop?.toFixed(1)} ms (the gate's count alone: ${gateCountMs.toFixed(1)} ms; ${during.length} checks overlapped it, ` +
          `the slowest ${slowest.toFixed(1)} ms)`,
      );
    }
    await checks.stop();
    const outside = checks.samples.filter((c) => !windows.some((w) => c.at < w.to && c.at + c.ms > w.from)).map((c) => c.ms);
    results.drops = drops;
    results.checks_beside_drops = { outside_drops: outside.length, p50_ms: quantile(outside, 0.5), p99_ms: quantile(outside, 0.99) };
    report.push({
      measure: 'checks during the drops (4 connections, one check after another): outside any drop, p50 / p99',
      figures: `${num(quantile(outside, 0.5))} / ${num(quantile(outside, 0.99))} ms (${num(outside.length)} checks)`,
    });
    for (const [label, names] of [
      ['small', smallOnes],
      ['large', largeOnes],
    ] as const) {
      const ds = drops.filter((d) => names.includes(d.partition));
      report.push({
        measure: `drop of a ${label} partition (the gateway's PartitionMaintenance.drop, gate re-checked): whole; step 1 (detach and retire, the table's lock); step 2 (drop of the retired table)`,
        figures: ds
          .map(
            (d) =>
              `${num(d.rows)} rows: ${num(d.ms)} ms; ${num(d.detach_ms)} ms; ${d.drop_ms === null ? 'left to the next run' : `${num(d.drop_ms)} ms`} ` +
              `(the gate's count alone ${num(d.gate_count_ms)} ms; the slowest check overlapping it ${num(d.slowest_check_ms)} ms)`,
          )
          .join('; '),
      });
    }
    report.push({
      measure: `bytes on disk per consultation (${disk.partitions} partitions, ${num(disk.rows)} rows, before the drops)`,
      figures:
        `${num(disk.per_row.total)} total: table ${num(disk.per_row.main)}, TOAST and maps ${num(disk.per_row.toast_and_maps)}, ` +
        `indexes ${num(disk.per_row.indexes)} (mean record ${num(disk.mean_record_bytes)})`,
    });
    results.loadavg_at_end = os.loadavg().map((x) => Math.round(x * 100) / 100);
    log('');
    log(reportTable(report));
    log(
      `load average at the start ${JSON.stringify((results.machine as { loadavg_at_start: number[] }).loadavg_at_start)}, at the end ${JSON.stringify(results.loadavg_at_end)}`,
    );
    results.report = report;
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
  } finally {
    await pool?.end();
    await stopBench(children, [pg, redis], dir);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
