// The budget cases of the verdict benchmark (`node bench/verdict/bench.mjs --budget`; docs/benchmarks.md "Policies
// that remember"): the 100-rule tenant as the other cases run it with its checks spread over 1,000 agents' keys,
// the same plus one `limit` rule keyed by principal (1,000 windows), and the same plus one rule with a single
// window for every call (the hot key). The tenants alternate within each round; the windows are far from full, so
// every check that goes ahead takes its window (a write), and the verdicts are those of the tenant without it.
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { api, benchTenant, log, measured, preflight } from './harness';
import { runLoad } from './loadgen';

const AGENTS = 1000;

/** A count no run reaches: the rule never fires, every check that goes ahead consumes. */
const BUDGET = { count: true, max: 1_000_000_000, window: '1h' };

type Tenant = Awaited<ReturnType<typeof benchTenant>> & { keys: string[] };

/** `count` more agents of the tenant with a `check` key each, made through the registry API (8 at a time). */
async function agentKeys(registry: string, adminKey: string, tenantId: string, count: number): Promise<string[]> {
  const auth = { Authorization: `Bearer ${adminKey}` };
  const keys: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const p = await api(registry, 'POST', '/api/v1/principals', auth, { kind: 'agent', name: `bench-agent-${i}`, tenant_id: tenantId });
        keys[i] = (
          await api(registry, 'POST', '/api/v1/api-keys', auth, { principal_id: p.id, permissions: ['check'], tenant_id: tenantId })
        ).key;
      }
    }),
  );
  return keys;
}

/** The benchmark tenant with `agents` agents' keys, and with `by` one MANDATORY rule over every action with a count budget keyed by it. */
async function budgetTenant(registry: string, adminKey: string, rules: number, by: string[] | null, agents: number): Promise<Tenant> {
  const t = await benchTenant(registry, adminKey, rules);
  if (by === null) return { ...t, keys: await agentKeys(registry, adminKey, t.id, agents) };
  const tenantAuth = { Authorization: `Bearer ${t.adminKey}` };
  const scope = await api(registry, 'POST', '/api/v1/scopes', tenantAuth, { name: 'budget', selector: {} });
  await api(registry, 'POST', `/api/v1/scopes/${scope.id}/rules`, tenantAuth, {
    directive: `At most a billion operations an hour${by.length ? ` per ${by.join(', ')}` : ''}`,
    severity: 'MANDATORY',
    conditions: [],
    limit: { ...BUDGET, by },
  });
  return { ...t, keys: await agentKeys(registry, adminKey, t.id, agents) };
}

export interface BudgetOptions {
  registry: string;
  adminKey: string;
  verdict: string;
  verdictProcess: ChildProcess;
  pgPid: number;
  /** The verdict database's URL when pg_stat_statements is loaded (--pg-statements): each case's statements are reported. */
  pgStatements?: string;
  rules: number;
  connections: number;
  seconds: number;
  rounds: number;
  /** Which cases run (`none`, `principal`, `hot`), e.g. one alone under a CPU profile; all by default. */
  only?: string[];
}

/** The gateway's gathered takes so far (arbiter_window_take_batch_size): batches and takes. */
async function takeBatches(verdict: string): Promise<{ batches: number; takes: number }> {
  const text = await (await fetch(`${verdict}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^arbiter_window_take_batch_size_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { batches: read('count'), takes: read('sum') };
}

/** The statements of the verdict database since the last reset, by total execution time, per check; then reset. */
async function statements(url: string, checks: number): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await c.query<{ query: string; calls: string; total: number; rows: string }>(
      `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query, calls, total_exec_time + total_plan_time AS total, rows
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time + total_plan_time DESC LIMIT 24`,
    );
    for (const r of checks > 0 ? rows : [])
      log(
        `    ${((r.total * 1000) / Math.max(1, checks)).toFixed(1)} µs/check, ${(Number(r.calls) / Math.max(1, checks)).toFixed(3)} calls/check, ${(
          (r.total * 1000) /
          Math.max(1, Number(r.calls))
        ).toFixed(0)} µs/call: ${r.query}`,
      );
    const functions = await c.query<{ funcname: string; calls: string; total: number; self: number }>(
      'SELECT funcname, calls, total_time AS total, self_time AS self FROM pg_stat_user_functions ORDER BY total_time DESC',
    );
    for (const f of checks > 0 ? functions.rows : [])
      log(
        `    function ${f.funcname}: ${(Number(f.calls) / checks).toFixed(3)} calls/check, ${((f.total * 1000) / checks).toFixed(1)} µs/check (self ${((f.self * 1000) / checks).toFixed(1)})`,
      );
    await c.query('SELECT pg_stat_statements_reset()');
    await c.query('SELECT pg_stat_reset()');
  } finally {
    await c.end();
  }
}

/** The three cases, alternating (plain, by principal, hot key) in each round; one line per run. */
export async function budgetCases(o: BudgetOptions) {
  const started = Date.now();
  const wanted = (id: string) => !o.only || o.only.includes(id);
  // Every case spreads its checks over 1,000 agents' keys, so that they differ only by the budget rule.
  const cases = [
    ...(wanted('none') ? [{ name: 'no budget', t: await budgetTenant(o.registry, o.adminKey, o.rules, null, AGENTS) }] : []),
    ...(wanted('principal')
      ? [{ name: 'budget by principal', t: await budgetTenant(o.registry, o.adminKey, o.rules, ['principal'], AGENTS) }]
      : []),
    ...(wanted('hot')
      ? [{ name: 'budget, one window (hot key)', t: await budgetTenant(o.registry, o.adminKey, o.rules, [], AGENTS) }]
      : []),
  ];
  const plain = wanted('none') ? cases[0].t : undefined;
  log(
    `budget tenants (${o.rules} rules each, 1,000 agent keys) made through the registry API in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const c of cases) await preflight(o.verdict, c.t);
  const load = (t: Tenant, seconds: number) =>
    runLoad({
      url: o.verdict,
      path: `/${t.id}/v1/check`,
      headers: {},
      keys: t.keys,
      bodies: t.bodies,
      connections: o.connections,
      seconds,
    });
  for (const c of cases) await load(c.t, 3); // warm-up: JIT, pool, key caches of every agent
  const runs: Array<Record<string, unknown>> = [];
  for (let round = 1; round <= o.rounds; round++) {
    const base = { per_second: 0 };
    for (const c of cases) {
      if (o.pgStatements) await statements(o.pgStatements, 0).catch(() => undefined);
      const before = await takeBatches(o.verdict);
      const r = await measured(o.verdictProcess, o.pgPid, () => load(c.t, o.seconds));
      const after = await takeBatches(o.verdict);
      const batches = after.batches - before.batches;
      const meanBatch = batches > 0 ? Math.round(((after.takes - before.takes) / batches) * 10) / 10 : null;
      if (c.t === plain) base.per_second = r.per_second;
      const ratio = plain ? Math.round((r.per_second / Math.max(1, base.per_second)) * 100) / 100 : null;
      runs.push({ round, case: c.name, ratio_to_no_budget: ratio, mean_take_batch: meanBatch, ...r });
      log(
        `round ${round}, ${c.name}, ${o.rules} rules, ${AGENTS} agents, ${o.connections} connections: ${r.per_second}/s${ratio === null ? '' : ` (${ratio}x)`}, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, failures ${r.failures} ${JSON.stringify(r.statuses)}, CPU per check: server ${r.server_cpu_us_per_request} µs, PostgreSQL ${r.postgres_cpu_us_per_request} µs${meanBatch === null ? '' : `, takes per commit ${meanBatch}`}`,
      );
      if (o.pgStatements) await statements(o.pgStatements, r.requests);
    }
  }
  return runs;
}
