// The one mapping of an internal call's outcome, shared by the clients of every service's internal
// API (client.ts for the registry, ledger-client.ts for the ledger, verdict-client.ts for the verdict gateway): a timeout on each request, and
// - no answer (refused, reset, timed out, aborted), invalid JSON, 5xx, 401, 429 and a redirect (never
//   followed, it would carry the service token elsewhere): `unavailable` (a retry may succeed; a token
//   mismatch or a moved URL is a deployment fault, not the caller's);
// - any other 4xx: `rejected`, with the detail of the service's error body.

import createClient, { type Client } from 'openapi-fetch';
import { inSpan, injectHeaders, SpanKind, tracingEnabled } from '@arbiter/telemetry';

/** The header carrying the shared service token (README.md "Architecture"). */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** What every internal client is made with. */
export interface InternalClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3001. */
  baseUrl: string;
  /** The INTERNAL_TOKEN shared by the services. */
  token: string;
  /** Per request, in ms (each client says its default). */
  timeoutMs?: number;
  /** Another fetch (tests). Default: the global fetch, resolved at call time. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The typed client of a service's internal API: its base URL, the service token on every request, internalFetch. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- openapi-fetch's own bound on paths
export function internalApi<Paths extends {}>(opts: InternalClientOptions): Client<Paths> {
  return createClient<Paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { [INTERNAL_TOKEN_HEADER]: opts.token, accept: 'application/json' },
    fetch: internalFetch(opts.fetch),
  });
}

/** What openapi-fetch answers. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The errors a client throws, named for its service. */
export interface CallErrors {
  unreachable(message: string): Error;
  unavailable(message: string, status?: number): Error;
  rejected(status: number, detail: string): Error;
}

/**
 * The fetch of every internal client: `base` (a test's, else the global fetch at call time), with the
 * active trace context in the traceparent/tracestate headers while tracing is on.
 */
export function internalFetch(base?: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return (request: Request) => {
    injectHeaders(request.headers);
    // Never follow a redirect: fetch would carry the service token to whatever origin the Location names.
    return (base ?? globalThis.fetch)(new Request(request, { redirect: 'manual' }));
  };
}

/**
 * One internal call, mapped (see above). While tracing is on it is a client span named
 * `<service> <what>` (e.g. `registry GET /tenants/state`), whose context the request carries.
 */
export function mappedCall<T>(...args: Parameters<typeof answerOf<T>>): Promise<T> {
  if (!tracingEnabled()) return answerOf(...args);
  const [service, what] = args;
  return inSpan(`${service} ${what}`, { kind: SpanKind.CLIENT, attributes: { 'arbiter.peer.service': service } }, () => answerOf(...args));
}

async function answerOf<T>(
  service: string,
  what: string,
  timeoutMs: number,
  errors: CallErrors,
  request: (signal: AbortSignal) => Promise<Answer<T>>,
  signal?: AbortSignal,
): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let answer: Answer<T>;
  try {
    answer = await request(signal ? AbortSignal.any([signal, timeout]) : timeout);
  } catch (err) {
    if (err instanceof SyntaxError) throw errors.unavailable(`${service} answered invalid JSON for ${what}`);
    throw errors.unreachable(`${service} unreachable (${what}): ${(err as Error).message}`);
  }
  const { status } = answer.response;
  if (answer.response.ok) return answer.data as T;
  if (status >= 500 || status === 401 || status === 429) throw errors.unavailable(`${service} answered ${status} for ${what}`, status);
  // A redirect is a deployment fault (a URL that moved, a proxy in between), never followed: unavailable.
  if (status >= 300 && status < 400)
    throw errors.unavailable(`${service} answered ${status} (a redirect, not followed) for ${what}`, status);
  throw errors.rejected(status, detailOf(answer.error));
}

/** The detail of an error body (the registry's `detail`, the ledger's `message`; its text when it is not JSON), at most 500 characters. */
export function detailOf(error: unknown): string {
  const body = error as { detail?: unknown; message?: unknown } | string | null | undefined;
  const detail = typeof body === 'object' && body !== null ? (body.detail ?? body.message ?? JSON.stringify(body)) : (body ?? '');
  return String(detail).slice(0, 500);
}

/** Longest a timer may run (setTimeout's bound): the body of a stream is not timed. */
const UNTIMED_MS = 2 ** 31 - 1;

/**
 * A call answered with JSON Lines (a partition's rows, docs/operations.md "Archive"), line by line. The timeout bounds
 * the wait for the answer's headers, not the reading of its body, which may be long; the answer maps as for every call,
 * and a body that breaks off is `unavailable`. A consumer that stops early aborts the request.
 */
export async function* ndjsonCall(
  service: string,
  what: string,
  timeoutMs: number,
  errors: CallErrors,
  request: (signal: AbortSignal) => Promise<Answer<ReadableStream<Uint8Array> | null>>,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const headers = new AbortController();
  const stop = new AbortController();
  const timer = setTimeout(() => headers.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const combined = AbortSignal.any([headers.signal, stop.signal, ...(signal ? [signal] : [])]);
  let stream: ReadableStream<Uint8Array> | null;
  try {
    stream = await answerOf(service, what, UNTIMED_MS, errors, (s) => request(AbortSignal.any([s, combined])));
  } finally {
    clearTimeout(timer);
  }
  if (!stream) return;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  let done = false;
  try {
    try {
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n');
        rest = parts.pop()!;
        for (const p of parts) if (p !== '') yield p;
      }
      rest += decoder.decode();
    } catch (err) {
      throw errors.unavailable(`${service} broke off ${what}: ${(err as Error).message}`);
    }
    if (rest !== '') yield rest;
    done = true;
  } finally {
    if (!done) stop.abort();
  }
}
