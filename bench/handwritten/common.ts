// Shared by the benchmarks of the hand-written pieces against their libraries (bench/handwritten/run.mjs,
// docs/benchmarks.md "Hand-written pieces against their libraries"): machine facts, statistics, and an HTTP
// server in a child process that reports its own CPU time, so the load generator's CPU is not counted.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';

export function machine() {
  return {
    nproc: os.cpus().length,
    cpu: os.cpus()[0]?.model?.trim(),
    node: process.version,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function printMachine(title: string): void {
  console.log(`${title}: ${JSON.stringify(machine())}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** "median (min-max)" of the rounds, in whole units. */
export function summary(values: number[], digits = 0): { median: number; min: number; max: number; text: string } {
  const r = (x: number) => Number(x.toFixed(digits));
  const m = r(median(values));
  const min = r(Math.min(...values));
  const max = r(Math.max(...values));
  return { median: m, min, max, text: `${m} (${min}-${max})` };
}

/** µs of CPU (user + system) this process has used since `since`. */
export function cpuMicros(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return d.user + d.system;
}

// ---- a server in a child process -------------------------------------------------------------------------

type ServerMessage = { port: number } | { cpu: number };

/** A child HTTP server running `variant` (the bundle itself, started with `--serve <variant>`). */
export interface ChildServer {
  port: number;
  /** The child's CPU µs so far. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/** The child's standard output goes to /dev/null: what a logger writes there costs the write, and is dropped. */
export async function startChildServer(variant: string): Promise<ChildServer> {
  const devNull = fs.openSync('/dev/null', 'w');
  const child: ChildProcess = fork(process.argv[1]!, ['--serve', variant], { stdio: ['ignore', devNull, 'inherit', 'ipc'] });
  fs.closeSync(devNull);
  let exited: Error | undefined;
  let failPending: ((err: Error) => void) | undefined;
  child.once('exit', (code) => {
    exited = new Error(`server ${variant} exited with ${code}`);
    failPending?.(exited);
  });
  const next = () =>
    new Promise<ServerMessage>((resolve, reject) => {
      if (exited) return reject(exited);
      failPending = reject;
      child.once('message', (m) => resolve(m as ServerMessage));
    });
  const { port } = (await next()) as { port: number };
  return {
    port,
    async cpu() {
      const reply = next();
      child.send('cpu');
      return ((await reply) as { cpu: number }).cpu;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** In the child: serves `handler` on a free port and answers the parent's CPU queries. */
export function serveInChild(handler: http.RequestListener): void {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, handler);
  server.listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.address() as { port: number }).port });
  });
  process.on('message', () => {
    const u = process.cpuUsage();
    process.send!({ cpu: u.user + u.system });
  });
  process.on('SIGTERM', () => process.exit(0));
}

export interface Request {
  method: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string;
}

/** Sends `total` requests over `connections` keep-alive connections; resolves with the statuses seen. */
export async function load(port: number, total: number, connections: number, request: Request): Promise<Record<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses: Record<number, number> = {};
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: request.method, path: request.path, headers: request.headers, agent },
        (res) => {
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(request.body);
    });
  const worker = async () => {
    while (sent < total) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return statuses;
}

/**
 * Rounds of `requests` requests against each variant's server (one child process per variant, kept for
 * every round; the variants take turns within a round). Returns the server CPU µs per request of each round.
 */
export async function cpuPerRequest(
  variants: string[],
  {
    rounds,
    requests,
    warmup,
    connections,
    request,
  }: { rounds: number; requests: number; warmup: number; connections: number; request: (variant: string) => Request },
): Promise<Record<string, number[]>> {
  const servers = new Map<string, ChildServer>();
  for (const v of variants) servers.set(v, await startChildServer(v));
  const out: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v, []]));
  try {
    for (const v of variants) await load(servers.get(v)!.port, warmup, connections, request(v));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...variants].reverse() : variants;
      for (const v of order) {
        const server = servers.get(v)!;
        const before = await server.cpu();
        const statuses = await load(server.port, requests, connections, request(v));
        const used = (await server.cpu()) - before;
        const ok = Object.entries(statuses)
          .filter(([s]) => Number(s) < 300)
          .reduce((n, [, c]) => n + c, 0);
        if (ok !== requests) throw new Error(`${v}: ${JSON.stringify(statuses)}`);
        out[v]!.push(used / requests);
      }
    }
  } finally {
    for (const s of servers.values()) await s.stop();
  }
  return out;
}

/**
 * cpuPerRequest with the settings both HTTP benchmarks use (7 rounds of 20,000 requests over 16 connections, or
 * 3 of 5,000 with --quick), printed as one line per variant: median (min-max) and the difference to `baseline`.
 */
export async function printServerCpu(title: string, variants: string[], baseline: string, request: Request, quick: boolean): Promise<void> {
  const rounds = quick ? 3 : 7;
  const requests = quick ? 5_000 : 20_000;
  const results = await cpuPerRequest(variants, { rounds, requests, warmup: 5_000, connections: 16, request: () => request });
  console.log(`server CPU µs per request${title}, ${rounds} rounds of ${requests} requests over 16 connections: median (min-max)`);
  const base = summary(results[baseline]!).median;
  for (const v of variants) {
    const s = summary(results[v]!);
    console.log(`  ${v.padEnd(18)} ${s.text.padEnd(16)} ${v === baseline ? '' : `+${Math.round(s.median - base)} µs over ${baseline}`}`);
  }
}
