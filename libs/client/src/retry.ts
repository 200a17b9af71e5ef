// What every SDK request goes through before it leaves (docs/sdk.md "Retries, timeouts and the
// User-Agent"): a timeout per attempt, and retries of answers that say "not now" — 429 and 503 —
// after the service's Retry-After or an exponential backoff with full jitter. A request that may
// have been carried out is never repeated: only 429/503 answers (the services refuse before they act)
// and, for GET and HEAD alone, failures to get an answer are retried.
import { sleep } from './sleep';

/** A fetch as the SDK calls it: one Request in, its Response out (the global fetch, or the caller's). */
export type FetchLike = (input: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  retries?: number;
  /** The backoff's first ceiling; it doubles per retry. Default 250 ms. */
  baseDelayMs?: number;
  /** No pause is longer; a Retry-After beyond it is not waited for (the answer is returned). Default 10 s. */
  maxDelayMs?: number;
  /** Statuses retried. Default [429, 503]. */
  statuses?: readonly number[];
  /** For tests: the pause and the random source of the jitter. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export const SDK_VERSION = '0.1.0';
/** Sent unless the caller's headers name another. */
export const USER_AGENT = `arbiter-client/${SDK_VERSION} node/${process.versions.node}`;
export const DEFAULT_TIMEOUT_MS = 30_000;

const IDEMPOTENT = new Set(['GET', 'HEAD']);

const defaultSleep = sleep;

/** Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A fetch with a timeout per attempt and the retries above. */
export function resilientFetch(fetch: FetchLike, opts: { timeoutMs?: number; retry?: RetryOptions | false } = {}): FetchLike {
  const retry = opts.retry === false ? { retries: 0 } : (opts.retry ?? {});
  const retries = retry.retries ?? 3;
  const base = retry.baseDelayMs ?? 250;
  const max = retry.maxDelayMs ?? 10_000;
  const statuses = new Set(retry.statuses ?? [429, 503]);
  const sleep = retry.sleep ?? defaultSleep;
  const random = retry.random ?? Math.random;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      // A body is read once: every attempt but the last sends a copy.
      const sent = last ? request : request.clone();
      const signal = timeoutMs > 0 ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) : request.signal;
      let response: Response;
      try {
        response = await fetch(new Request(sent, { signal }));
      } catch (err) {
        if (request.signal.aborted) throw err;
        const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
        const failure = timedOut ? new Error(`no answer within ${timeoutMs} ms`, { cause: err }) : err;
        if (last || !IDEMPOTENT.has(request.method)) throw failure;
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      if (last || !statuses.has(response.status)) return response;
      const told = retryAfterMs(response.headers.get('retry-after'));
      if (told !== null && told > max) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(told ?? backoff(attempt), request.signal);
    }
  };

  /** Full jitter (a random pause up to a ceiling that doubles per retry, capped). */
  function backoff(attempt: number): number {
    return Math.floor(random() * Math.min(max, base * 2 ** attempt));
  }
}
