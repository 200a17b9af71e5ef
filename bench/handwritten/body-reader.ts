// The fast lanes' body reader (libs/http/src/fast-lane.ts, ADR 0006) against body-parser (express.json, configured
// as libs/http/src/app.ts configures it) and raw-body + JSON.parse: first how each one answers the same requests
// (behaviour), then the server CPU per request of reading and parsing a ~400-byte JSON body.
// Run with `node bench/handwritten/run.mjs body-reader`; results in docs/benchmarks.md
// "Hand-written pieces against their libraries".
import express from 'express';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import getRawBody from 'raw-body';
import { fastLaneBodyLength, readJsonBody, sendJson } from '../../libs/http/src/fast-lane';
import { cpuMicros, printMachine, printServerCpu, serveInChild, summary } from './common';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const LIMIT = 1024 * 1024; // BODY_LIMIT's default, 1 MiB
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i; // libs/http/src/app.ts
const VARIANTS = ['drain only', 'fast lane', 'express.json', 'raw-body'];

/** Reads the request's body as `variant` does; `undefined` = the reader left the request alone. */
type Reader = (req: IncomingMessage, res: ServerResponse) => Promise<{ body?: unknown; declined?: string }>;

function readerFor(variant: string): Reader {
  switch (variant) {
    case 'drain only':
      return (req) => new Promise((resolve) => req.resume().on('end', () => resolve({ body: null })));
    case 'fast lane':
      return async (req) => {
        const length = fastLaneBodyLength(req, LIMIT);
        if (length === null) return { declined: 'declined: express (body-parser) reads it' };
        return { body: await readJsonBody(req, length) };
      };
    case 'express.json': {
      const parse = express.json({ limit: LIMIT, type: (req) => JSON_TYPE.test(String(req.headers['content-type'] ?? '')) });
      return (req, res) =>
        new Promise((resolve, reject) =>
          parse(req as express.Request, res as express.Response, (err?: unknown) => {
            if (err) return reject(err);
            const body = (req as { body?: unknown }).body;
            resolve(body === undefined ? { declined: 'not read (req.body undefined)' } : { body });
          }),
        );
    }
    case 'raw-body':
      return async (req) => {
        const text = await getRawBody(req, { length: req.headers['content-length'], limit: LIMIT, encoding: 'utf8' });
        try {
          return { body: JSON.parse(text) };
        } catch {
          throw Object.assign(new Error('invalid JSON'), { status: 400, type: 'JSON.parse failed' });
        }
      };
    default:
      throw new Error(variant);
  }
}

/** The server: reads the body, answers 200 with the number of top-level members, or the error's status and type. */
function handlerFor(variant: string, record?: (outcome: string) => void): http.RequestListener {
  const read = readerFor(variant);
  return (req, res) => {
    read(req, res).then(
      ({ body, declined }) => {
        record?.(declined ?? `parsed ${JSON.stringify(body)?.slice(0, 24)}`);
        sendJson(res, 200, { members: body && typeof body === 'object' ? Object.keys(body).length : 0 });
      },
      (err: { status?: number; type?: string; message?: string }) => {
        record?.(`${err.status ?? 500} ${err.type ?? err.message}`);
        if (!res.headersSent && !res.destroyed) sendJson(res, err.status ?? 500, { type: err.type });
      },
    );
  };
}

// A check request body, 400 bytes or so.
const BODY = JSON.stringify({
  principal: { type: 'agent', id: 'agent-7f3c2a', attributes: { team: 'payments', clearance: 3 } },
  action: 'payments.refund',
  resource: { type: 'order', id: 'ord_01J9Z8Y7X6W5V4T3S2R1Q0P9N8', attributes: { amount: 1250, currency: 'EUR', region: 'eu-west-1' } },
  context: {
    channel: 'api',
    reason: 'customer asked for a refund of a duplicate charge',
    ip: '203.0.113.7',
    request_ts: '2026-11-26T12:00:00Z',
  },
  client_ref: 'refund-2026-11-26-000123',
});

// ---- behaviour ------------------------------------------------------------------------------------------

interface Probe {
  name: string;
  /** Raw bytes after the request line and Host header. */
  headers: string;
  body: Buffer | string;
  /** Half-close the connection after sending (the body is cut short). */
  cut?: boolean;
}

const json = 'Content-Type: application/json\r\n';
const probes: Probe[] = [
  { name: 'valid object', headers: json, body: '{"a":1}' },
  { name: 'charset=utf-8', headers: 'Content-Type: application/json; charset=utf-8\r\n', body: '{"a":1}' },
  { name: 'byte order mark', headers: json, body: '\ufeff{"a":1}' },
  { name: 'malformed', headers: json, body: '{"a":' },
  { name: 'top level not object/array', headers: json, body: '"text"' },
  { name: 'top level array', headers: json, body: '[1,2]' },
  { name: 'empty (Content-Length: 0)', headers: json, body: '' },
  { name: 'text/plain', headers: 'Content-Type: text/plain\r\n', body: '{"a":1}' },
  { name: 'application/merge-patch+json', headers: 'Content-Type: application/merge-patch+json\r\n', body: '{"a":1}' },
  { name: 'charset=latin1', headers: 'Content-Type: application/json; charset=latin1\r\n', body: '{"a":1}' },
  { name: 'gzip', headers: `${json}Content-Encoding: gzip\r\n`, body: zlib.gzipSync('{"a":1}') },
  { name: 'over the limit (Content-Length 2 MiB)', headers: json, body: Buffer.alloc(2 * 1024 * 1024, 0x20) },
  { name: 'cut short (client half-closes)', headers: json, body: '{"a":1, "b": "' + 'x'.repeat(50), cut: true },
];

function send(port: number, probe: Probe): Promise<string> {
  const body = Buffer.isBuffer(probe.body) ? probe.body : Buffer.from(probe.body);
  const length = probe.cut ? body.length + 100 : body.length;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (d) => (reply += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(reply.split('\r\n')[0] ?? ''));
    socket.write(`POST /probe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${probe.headers}Content-Length: ${length}\r\n\r\n`);
    socket.write(body);
    if (probe.cut) socket.end();
  });
}

async function behaviour(): Promise<void> {
  const readers = VARIANTS.filter((v) => v !== 'drain only');
  const outcomes: Record<string, string[]> = {};
  for (const v of readers) {
    let last = '';
    const server = http.createServer(handlerFor(v, (o) => (last = o)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    for (const probe of probes) {
      last = '(nothing)';
      await send(port, probe);
      await new Promise((r) => setTimeout(r, 20)); // lets a cut-short request's 'close' settle the reader
      (outcomes[probe.name] ??= []).push(last);
    }
    server.close();
  }
  console.log(`behaviour (what each reader makes of the request):`);
  console.log(`  | request | ${readers.join(' | ')} |`);
  for (const probe of probes) console.log(`  | ${probe.name} | ${outcomes[probe.name]!.join(' | ')} |`);
}

// ---- the reader alone, in process ------------------------------------------------------------------------

/** A request-like stream holding BODY, as node:http hands it over: headers, then one 'data' chunk, then 'end'. */
function fakeRequest(): IncomingMessage {
  const req = new Readable({ read() {} }) as Readable & { headers: http.IncomingHttpHeaders; method: string; url: string };
  req.headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };
  req.method = 'POST';
  req.url = '/v1/check';
  req.push(Buffer.from(BODY));
  req.push(null);
  return req as unknown as IncomingMessage;
}

/** CPU µs per body for each reader (no HTTP): `n` reads in a row, awaited one at a time. */
async function inProcess(n: number): Promise<Record<string, number>> {
  const res = {} as ServerResponse;
  const out: Record<string, number> = {};
  for (const v of VARIANTS) {
    const read = readerFor(v);
    const since = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const { body } = await read(fakeRequest(), res);
      if (v !== 'drain only' && (body as { action?: string }).action !== 'payments.refund') throw new Error(`${v} read nothing`);
    }
    out[v] = cpuMicros(since) / n;
  }
  return out;
}

async function main() {
  if (args[0] === '--serve') return serveInChild(handlerFor(args[1]!));
  printMachine('body reader vs body-parser / raw-body');
  await behaviour();
  const reads = QUICK ? 20_000 : 50_000;
  const inProcessRounds = QUICK ? 3 : 7;
  await inProcess(reads); // warm-up
  const alone: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v, []]));
  for (let r = 0; r < inProcessRounds; r++) for (const [v, us] of Object.entries(await inProcess(reads))) alone[v]!.push(us);
  console.log(
    `reader alone, in process (a stream with the body, no HTTP), CPU µs per body, ${inProcessRounds} rounds of ${reads}: median (min-max)`,
  );
  for (const v of VARIANTS) console.log(`  ${v.padEnd(14)} ${summary(alone[v]!, 1).text}`);
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) };
  await printServerCpu(
    ` (${Buffer.byteLength(BODY)}-byte JSON body)`,
    VARIANTS,
    'drain only',
    { method: 'POST', path: '/v1/check', headers, body: BODY },
    QUICK,
  );
  printMachine('at the end');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
