// The one place where the SDK meets HTTP: an openapi-fetch client typed by the generated `paths` of a
// service, with its authentication header, and `unwrap`, which turns every non-2xx answer into the
// service's typed error. No request is written by hand: paths, parameters and bodies are checked
// against the committed OpenAPI documents at compile time.
import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, transportError, type ArbiterError, type ServiceName } from './errors';
import { resilientFetch, USER_AGENT, type FetchLike, type RetryOptions } from './retry';

export interface ServiceClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3002 (a path prefix is kept). */
  baseUrl: string;
  /** An API key `ak-…` (verdict and ledger: X-API-Key; registry: Authorization: Bearer). Optional for public endpoints. */
  apiKey?: string;
  /** Another fetch (tests, proxies, instrumentation). Default: the global fetch. */
  fetch?: FetchLike;
  /** Extra headers sent with every request; a User-Agent here replaces the SDK's (`arbiter-client/<version> node/<version>`). */
  headers?: Record<string, string>;
  /** How long one attempt may take before it fails (`network_error`); 0: no limit. Default 30 s. */
  timeoutMs?: number;
  /** Retries of 429 and 503 answers (and of GET/HEAD without an answer); `false` turns them off. docs/sdk.md. */
  retry?: RetryOptions | false;
}

/** An openapi-fetch client for one service, authenticated as that service expects (docs/identity.md). */
export function createServiceClient<Paths extends object>(service: ServiceName, opts: ServiceClientOptions): Client<Paths> {
  const auth: Record<string, string> = {};
  if (opts.apiKey) {
    if (service === 'registry') auth.Authorization = `Bearer ${opts.apiKey}`;
    else auth['X-API-Key'] = opts.apiKey;
  }
  const userFetch = opts.fetch;
  const hasUserAgent = Object.keys(opts.headers ?? {}).some((h) => h.toLowerCase() === 'user-agent');
  return createClient<Paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { ...(hasUserAgent ? {} : { 'User-Agent': USER_AGENT }), ...opts.headers, ...auth },
    // Resolved at call time, so a test or an instrumentation that replaces globalThis.fetch is honoured.
    // Redirects are never followed: fetch keeps X-API-Key on a redirect to another origin (it drops only
    // Authorization), so following one would hand the key to whatever server the Location names.
    fetch: resilientFetch((request: Request) => (userFetch ?? globalThis.fetch)(new Request(request, { redirect: 'manual' })), {
      timeoutMs: opts.timeoutMs,
      retry: opts.retry,
    }),
  });
}

interface OpenApiFetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer; any other answer (or no answer) becomes the service's ArbiterError. */
export async function unwrap<R extends OpenApiFetchResult>(
  service: ServiceName,
  pending: Promise<R>,
): Promise<Exclude<R['data'], undefined>> {
  return (await unwrapWithResponse(service, pending)).data;
}

/** As unwrap, keeping the Response (for headers such as X-Verdict-TTL or Cache-Control). */
export async function unwrapWithResponse<R extends OpenApiFetchResult>(
  service: ServiceName,
  pending: Promise<R>,
): Promise<{ data: Exclude<R['data'], undefined>; response: Response }> {
  let result: R;
  try {
    result = await pending;
  } catch (err) {
    throw asTransportError(service, err);
  }
  const { response } = result;
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    throw transportError(
      service,
      'invalid_response',
      `the ${service} answered ${response.status}, a redirect${location ? ` to ${location}` : ''}: not followed, since it would carry the API key there; give the final address as baseUrl`,
    );
  }
  if (!response.ok) throw errorFromResponse(service, response.status, result.error, response.headers.get('x-request-id') ?? undefined);
  return { data: result.data as Exclude<R['data'], undefined>, response };
}

function asTransportError(service: ServiceName, err: unknown): ArbiterError {
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  const message = err instanceof Error ? `${err.message}${cause}` : String(err);
  return transportError(service, err instanceof SyntaxError ? 'invalid_response' : 'network_error', message, err);
}

/** Every page of a cursor-paginated list (`{items, next_cursor}`), first to last. */
export async function* cursorPages<P extends { next_cursor?: string | null }>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
): AsyncGenerator<P> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
