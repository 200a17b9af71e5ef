// The client of the verdict gateway's internal API (/internal/v1, apps/verdict/openapi.internal.json):
// the worker's seal relay leases, completes and releases the gateway's seal_outbox rows through it.
// Failures map as for the registry (client.ts): no answer, 5xx, 401 and 429 are VerdictUnavailableError
// (a retry may succeed), any other 4xx VerdictRejectedError.
import createClient, { type Client } from 'openapi-fetch';
import { INTERNAL_TOKEN_HEADER } from './client';
import type { components, paths } from './generated/verdict-internal';

type Schemas = components['schemas'];

export interface VerdictInternalClientOptions {
  /** The verdict gateway's base URL, e.g. http://127.0.0.1:3002. */
  baseUrl: string;
  /** The INTERNAL_TOKEN shared by the services. */
  token: string;
  /** Per request, in ms (default 5 s). */
  timeoutMs?: number;
  /** Another fetch (tests). Default: the global fetch, resolved at call time. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The gateway could not answer (unreachable, timed out, 5xx, 401, 429): a retry may succeed. */
export class VerdictUnavailableError extends Error {
  constructor(
    readonly code: 'verdict_unreachable' | 'verdict_unavailable',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'VerdictUnavailableError';
  }
}

/** The gateway refused the request for a reason a retry will not change (another 4xx). */
export class VerdictRejectedError extends Error {
  readonly code = 'verdict_rejected';
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`verdict answered ${status}: ${detail}`);
    this.name = 'VerdictRejectedError';
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export class VerdictInternalClient {
  /** Requests made so far. */
  requests = 0;
  private readonly api: Client<paths>;
  private readonly timeoutMs: number;

  constructor(opts: VerdictInternalClientOptions) {
    const userFetch = opts.fetch;
    this.timeoutMs = opts.timeoutMs ?? 5_000;
    this.api = createClient<paths>({
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
      headers: { [INTERNAL_TOKEN_HEADER]: opts.token, accept: 'application/json' },
      fetch: (request: Request) => (userFetch ?? globalThis.fetch)(request),
    });
  }

  /** Leases up to `limit` seal_outbox rows (consultations, approval decisions) for `leaseMs`. */
  leaseSeals(limit: number, leaseMs: number): Promise<Schemas['SealLease']> {
    return this.call('POST /seal-outbox/lease', (signal) => this.api.POST('/internal/v1/seal-outbox/lease', { body: { limit, lease_ms: leaseMs }, signal }));
  }

  /** Deletes the rows the ledger acknowledged. */
  sealsDone(ids: string[], signal?: AbortSignal): Promise<Schemas['SealDoneAnswer']> {
    return this.call('POST /seal-outbox/done', (s) => this.api.POST('/internal/v1/seal-outbox/done', { body: { ids }, signal: s }), signal);
  }

  /** Hands rows of a lease back at once. */
  releaseSeals(ids: string[], leasedUntil: string): Promise<Schemas['SealReleaseAnswer']> {
    return this.call('POST /seal-outbox/release', (signal) => this.api.POST('/internal/v1/seal-outbox/release', { body: { ids, leased_until: leasedUntil }, signal }));
  }

  private async call<T>(what: string, request: (signal: AbortSignal) => Promise<Answer<T>>, signal?: AbortSignal): Promise<T> {
    this.requests++;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let answer: Answer<T>;
    try {
      answer = await request(signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (err) {
      if (err instanceof SyntaxError) throw new VerdictUnavailableError('verdict_unavailable', `verdict answered invalid JSON for ${what}`);
      throw new VerdictUnavailableError('verdict_unreachable', `verdict unreachable (${what}): ${(err as Error).message}`);
    }
    const { status } = answer.response;
    if (answer.response.ok) return answer.data as T;
    if (status >= 500 || status === 401 || status === 429) throw new VerdictUnavailableError('verdict_unavailable', `verdict answered ${status} for ${what}`, status);
    const body = answer.error as { message?: unknown } | string | null | undefined;
    const detail = typeof body === 'object' && body !== null ? (body.message ?? JSON.stringify(body)) : (body ?? '');
    throw new VerdictRejectedError(status, String(detail).slice(0, 500));
  }
}
