import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { decodeJsonBytes } from '@arbiter/input';
import { checkParsedBody } from './input-guard';

/**
 * Fast lanes (lanes.ts, ADR 0006) read their own JSON body and write their own answer. A request
 * takes a lane only in the common case: a JSON Content-Type in UTF-8, no Content-Encoding, a
 * Content-Length within the body limit. Anything else (compressed or chunked bodies, another charset,
 * an oversize body) goes to express, which parses it, or refuses it, exactly as for every other route.
 */
const PLAIN_JSON = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

/** The body length when this request can take a fast lane, otherwise null. */
export function fastLaneBodyLength(req: IncomingMessage, limitBytes: number): number | null {
  const type = req.headers['content-type'];
  if (type === undefined || !PLAIN_JSON.test(type)) return null;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return null;
  const raw = req.headers['content-length'];
  if (raw === undefined || req.headers['transfer-encoding'] !== undefined) return null;
  const length = Number(raw);
  if (!Number.isSafeInteger(length) || length <= 0 || length > limitBytes) return null;
  return length;
}

/**
 * The JSON body of `length` bytes. It fails as body-parser does, with `type` set, so the service's
 * error handler answers in its own dialect: `entity.parse.failed` (malformed, or not an object or
 * array at the top, as body-parser's strict mode), `request.aborted`, `request.size.invalid`; and,
 * as the express reader (app.ts), with the storable-JSON guard's UnstorableJsonError (input-guard.ts).
 * It took 6 µs of CPU per check-sized body where body-parser took 10, with the same answers on the
 * requests a lane takes (docs/benchmarks.md "Hand-written pieces against their libraries"); the guard
 * adds about 2 µs (its walk replaces the one the verdict gateway made of every body anyway).
 */
export function readJsonBody(req: IncomingMessage, length: number): Promise<unknown> {
  // The handlers are inline and stay attached (the request is dropped with its answer); `settled`
  // makes the first outcome the only one. No named closures per request: esbuild's keepNames would
  // wrap each of them in a defineProperty call on this hot path.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(parseJsonBody(req, chunks, received, length));
      } catch (err) {
        reject(err);
      }
    });
    // The client went away before the whole body arrived ('close' without 'end'), or the socket failed.
    const gone = (err?: Error) => {
      if (settled) return;
      settled = true;
      reject(err ? Object.assign(err, { type: 'request.aborted', status: 400 }) : bodyError('request.aborted', 'request aborted'));
    };
    req.on('aborted', () => gone());
    req.on('close', () => gone());
    req.on('error', gone);
  });
}

function parseJsonBody(req: IncomingMessage, chunks: Buffer[], received: number, length: number): unknown {
  if (received !== length) throw bodyError('request.size.invalid', 'request size did not match content length');
  let text = decodeJsonBytes(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark, which body-parser also drops
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') throw bodyError('entity.parse.failed', 'The body is not a JSON object or array');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bodyError('entity.parse.failed', 'The body is not valid JSON');
  }
  checkParsedBody(req, body, text);
  return body;
}

/** An error as body-parser makes them: the service's error handler maps `type` to its dialect. */
function bodyError(type: string, message: string): Error {
  return Object.assign(new Error(message), { type, status: 400, expose: true });
}

function firstNonSpace(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return text[i];
  }
  return undefined;
}

/** Writes a JSON answer in one go: the same headers express's res.json() gives, plus `headers`. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}
