import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

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
 * array at the top, as body-parser's strict mode), `request.aborted`, `request.size.invalid`.
 */
export function readJsonBody(req: IncomingMessage, length: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const fail = (type: string, message: string) => {
      cleanup();
      reject(Object.assign(new Error(message), { type, status: 400, expose: true }));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (received !== length) return fail('request.size.invalid', 'request size did not match content length');
      let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark, which body-parser also drops
      const first = firstNonSpace(text);
      if (first !== '{' && first !== '[') return fail('entity.parse.failed', 'The body is not a JSON object or array');
      try {
        resolve(JSON.parse(text));
      } catch {
        fail('entity.parse.failed', 'The body is not valid JSON');
      }
    };
    // The client went away before the whole body arrived ('close' without 'end').
    const onAborted = () => fail('request.aborted', 'request aborted');
    const onError = (err: Error) => {
      cleanup();
      reject(Object.assign(err, { type: 'request.aborted', status: 400 }));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('close', onAborted);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('close', onAborted);
    req.on('error', onError);
  });
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
