// A lean closed-loop HTTP/1.1 load generator: `connections` keep-alive sockets, each sending the next
// request as soon as the previous response is complete. Requests are serialised once; responses are
// parsed only as far as the status line and Content-Length. Cheap enough per request that the
// machine's two cores go mostly to the server under test.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LoadResult {
  connections: number;
  requests: number;
  seconds: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** Responses whose status was not the expected one. */
  failures: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  /** One server, or several (replicas behind a load balancer): connection i goes to urls[i % n]. */
  url: string | string[];
  path: string;
  headers: Record<string, string>;
  /** POST (default) with the bodies, or GET without a body. */
  method?: 'GET' | 'POST';
  /** Bodies, sent round-robin. */
  bodies: string[];
  /** API keys sent as `x-api-key`, round-robin with the bodies (request i: body i, key i, each modulo its count). */
  keys?: string[];
  connections: number;
  seconds: number;
  expectStatus?: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const targets = (Array.isArray(o.url) ? o.url : [o.url]).map((u) => new URL(u));
  const { hostname } = targets[0];
  const extra = Object.entries(o.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const keys = o.keys ?? [];
  const keyed = (i: number) => (keys.length ? `x-api-key: ${keys[i % keys.length]}\r\n` : '');
  const requests =
    o.method === 'GET'
      ? [Buffer.from(`GET ${o.path} HTTP/1.1\r\nHost: ${hostname}\r\n${extra}\r\n`)]
      : Array.from({ length: Math.max(o.bodies.length, keys.length) }, (_, i) => o.bodies[i % o.bodies.length]).map((body, i) =>
          Buffer.from(
            `POST ${o.path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}${keyed(i)}\r\n${body}`,
          ),
        );
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failures = 0;
  let next = 0;
  let measuring = true;
  const expect = o.expectStatus ?? 200;

  const connection = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const target = targets[i % targets.length];
      const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      let buffer: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (!measuring) {
          socket.end();
          return resolve();
        }
        sentAt = performance.now();
        socket.write(requests[next++ % requests.length]);
      };
      socket.on('connect', send);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        for (;;) {
          const end = buffer.indexOf(HEADER_END);
          if (end < 0) return;
          const head = buffer.subarray(0, end).toString('latin1');
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!m) return reject(new Error(`response without Content-Length: ${head.slice(0, 200)}`));
          const total = end + 4 + Number(m[1]);
          if (buffer.length < total) return;
          const status = head.slice(9, 12);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (Number(status) !== expect) failures++;
          latencies.push(performance.now() - sentAt);
          buffer = buffer.subarray(total);
          send();
        }
      });
    });

  const started = performance.now();
  const timer = setTimeout(() => (measuring = false), o.seconds * 1000);
  await Promise.all(Array.from({ length: o.connections }, (_, i) => connection(i)));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    connections: o.connections,
    requests: latencies.length,
    seconds: round(seconds),
    per_second: Math.round(latencies.length / seconds),
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    failures,
    statuses,
  };
}

export interface OpenLoadOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  bodies: string[];
  /** Requests per second, sent on schedule whatever the answers do (open loop). */
  rate: number;
  seconds: number;
  /** Keep-alive sockets; a request due while all are busy waits for the first free one (its latency counts from when it was due). */
  connections: number;
  expectStatus?: number;
}

export interface OpenLoadResult extends Omit<LoadResult, 'connections'> {
  rate: number;
  /** Wall-clock bounds of the sending, epoch ms. */
  started_ms: number;
  ended_ms: number;
}

/**
 * An open-loop load: `rate` requests per second for `seconds`, on schedule (a 1 ms tick sends what is
 * due), over keep-alive sockets. Latency is measured from each request's due time, so a server that
 * falls behind shows it instead of slowing the load down.
 */
export async function runOpenLoad(o: OpenLoadOptions): Promise<OpenLoadResult> {
  const target = new URL(o.url);
  const extra = Object.entries(o.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const requests = o.bodies.map((body) =>
    Buffer.from(
      `POST ${o.path} HTTP/1.1\r\nHost: ${target.hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`,
    ),
  );
  const expect = o.expectStatus ?? 200;
  const total = Math.round(o.rate * o.seconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failures = 0;
  let sent = 0;
  const backlog: number[] = []; // due times of requests waiting for a socket
  const idle: Array<(due: number) => void> = [];
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const done = () => latencies.length === total && finish();

  const sockets = Array.from({ length: o.connections }, () => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    let buffer: Buffer = Buffer.alloc(0);
    let due = 0;
    const send = (at: number) => {
      due = at;
      socket.write(requests[sent++ % requests.length]);
    };
    const free = () => {
      const next = backlog.shift();
      if (next !== undefined) send(next);
      else idle.push(send);
    };
    socket.on('connect', free);
    socket.on('error', (err) => {
      throw err;
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        const end = buffer.indexOf(HEADER_END);
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (!m) throw new Error(`response without Content-Length: ${head.slice(0, 200)}`);
        const size = end + 4 + Number(m[1]);
        if (buffer.length < size) return;
        const status = head.slice(9, 12);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (Number(status) !== expect) failures++;
        latencies.push(performance.now() - due);
        buffer = buffer.subarray(size);
        free();
        done();
      }
    });
    return socket;
  });
  await new Promise((r) => setTimeout(r, 200)); // sockets connected
  const started = performance.now();
  const startedMs = Date.now();
  let scheduled = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) / 1000) * o.rate));
      for (; scheduled < due; scheduled++) {
        const at = started + (scheduled * 1000) / o.rate;
        const socket = idle.shift();
        if (socket) socket(at);
        else backlog.push(at);
      }
      if (scheduled >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const endedMs = Date.now();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  for (const s of sockets) s.end();
  const sorted = Float64Array.from(latencies).sort();
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    rate: o.rate,
    requests: latencies.length,
    seconds: round(seconds),
    per_second: Math.round(latencies.length / seconds),
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    failures,
    statuses,
    started_ms: startedMs,
    ended_ms: endedMs,
  };
}
