// The storable-JSON guard on every request (docs/development.md "Storable JSON"): the express body
// parser (app.ts) and the fast lanes (fast-lane.ts) both read bodies through these, so the two doors
// of a route refuse the same bodies with the same answer; the services check the query and the path
// parameters with these too. The checks are @arbiter/input's; each service answers what is found in
// its own error format (ErrorDialect.unstorable).
import type { IncomingMessage } from 'node:http';
import {
  countMemberNames,
  decodeJsonBytes,
  findInexactNumber,
  findRepeatedName,
  findUnstorableString,
  inspectJson,
  stringProblem,
  UnstorableJsonError,
  type Unstorable,
} from '@arbiter/input';

/** A charset other than UTF-8: JSON between systems is UTF-8 (RFC 8259 section 8.1), the one encoding the guard checks byte for byte. */
export function assertUtf8Charset(charset: string): void {
  if (charset.toLowerCase() === 'utf-8') return;
  throw Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}": send JSON in UTF-8`), {
    status: 415,
    expose: true,
    type: 'charset.unsupported',
  });
}

const INEXACT = new WeakMap<IncomingMessage, Unstorable>();
// The text of a body read through body-parser, whose member names checkParsedBody counts against the parse.
const TEXT = new WeakMap<IncomingMessage, string>();

/**
 * body-parser's `verify` (before it decodes and parses): the charset, the bytes (UTF-8, or refused
 * naming where), and the numbers of the text, whose verdict waits for the parse (a body that is not
 * JSON is answered as such first: checkParsedBody).
 */
export function verifyJsonBytes(req: IncomingMessage, _res: unknown, bytes: Buffer, charset: string): void {
  assertUtf8Charset(charset);
  const text = decodeJsonBytes(bytes);
  const inexact = findInexactNumber(text);
  if (inexact) INEXACT.set(req, inexact);
  TEXT.set(req, text);
}

// The first string of a parsed body that cannot be stored, by the body's identity: found in the one
// walk of the body, refused where each service's document says (unstorableInBody).
const STRINGS = new WeakMap<object, Unstorable | null>();

/**
 * After the parse: an inexact number (found by verifyJsonBytes, or in `text` on a fast lane), nesting past
 * MAX_JSON_DEPTH, a member named `__proto__` (PROTOTYPE_NAME) and a member name repeated in one object are refused
 * at once; the first string that cannot be
 * stored is noted.
 */
export function checkParsedBody(req: IncomingMessage, body: unknown, text?: string): void {
  const inexact = text === undefined ? INEXACT.get(req) : findInexactNumber(text);
  if (inexact) throw new UnstorableJsonError(inexact);
  if (body === null || typeof body !== 'object') return;
  const found = inspectJson(body);
  if (found.depth) throw new UnstorableJsonError(found.depth);
  if (found.prototype) throw new UnstorableJsonError(found.prototype);
  // A member name given twice in one object: JSON.parse kept the last, another reader may take the first.
  const read = text ?? TEXT.get(req);
  if (read !== undefined && countMemberNames(read) !== found.members) {
    const repeated = findRepeatedName(read);
    if (repeated) throw new UnstorableJsonError(repeated);
  }
  STRINGS.set(body, found.string);
}

/**
 * The first key or string value of a request body (at any depth) that cannot be stored: U+0000 or a
 * lone surrogate (noted when the body was read; a body that did not come through the readers is walked
 * now), or null.
 */
export function unstorableInBody(body: unknown): Unstorable | null {
  if (body === null || typeof body !== 'object') return typeof body === 'string' ? findUnstorableString(body) : null;
  const known = STRINGS.get(body);
  return known !== undefined ? known : findUnstorableString(body);
}

/**
 * The first query parameter whose name or value holds U+0000, read from the raw URL so that a fast
 * lane and express name the same parameter: a URL cannot carry the raw byte (node:http refuses it)
 * and percent-decoding yields no lone surrogate (invalid UTF-8 becomes U+FFFD), so `%00` is the only
 * way in, and a URL without it costs one search. `path[0]` is the parameter's name.
 */
export function unstorableInQuery(url: string): Unstorable | null {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('%00', q)) return null;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    const inName = stringProblem(name);
    if (inName) return { path: [name], reason: inName, inName: true };
    const inValue = stringProblem(value);
    if (inValue) return { path: [name], reason: inValue, inName: false };
  }
  return null;
}

/** The first decoded path parameter that cannot be stored, named as the route names it (`stream_id`). */
export function unstorableInParams(params: Record<string, string | string[]>): Unstorable | null {
  for (const [name, value] of Object.entries(params)) {
    for (const part of typeof value === 'string' ? [value] : value) {
      const reason = stringProblem(part);
      if (reason) return { path: [name], reason, inName: false };
    }
  }
  return null;
}
