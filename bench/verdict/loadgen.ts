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
  const requests =
    o.method === 'GET'
      ? [Buffer.from(`GET ${o.path} HTTP/1.1\r\nHost: ${hostname}\r\n${extra}\r\n`)]
      : o.bodies.map((body) =>
          Buffer.from(`POST ${o.path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`),
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
