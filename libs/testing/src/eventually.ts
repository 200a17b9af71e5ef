// The one way a test waits for something the services do in their own time (docs/development.md "Test
// conventions"): a delivery, a sealed fact, a snapshot that caught up. It asks again and again, and when
// the time is up it says what it waited for, for how long, and the last value or error it saw.
import { inspect } from 'node:util';

export interface EventuallyOptions<T> {
  /** Give up after this long (default 20 s). */
  timeoutMs?: number;
  /** The pause between two tries (default 50 ms). */
  intervalMs?: number;
  /**
   * When a value is the awaited one: return false or throw (a failed `expect`) for "not yet".
   * Default: any value other than undefined, null or false.
   */
  until?: (value: T) => unknown;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_INTERVAL_MS = 50;

/** A value other than undefined, null or false: what `eventually` waits for unless told otherwise. */
type Settled<T> = Exclude<T, undefined | null | false>;

/**
 * Calls `probe` until it answers: a probe that throws, or whose value `until` refuses (by default:
 * undefined, null or false), is asked again after `intervalMs`. Resolves with the accepted value;
 * rejects after `timeoutMs` with an error naming `what`, the time waited, the number of tries and the
 * last value or error seen (the last error is also the rejection's `cause`).
 */
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  opts?: EventuallyOptions<T> & { until?: undefined },
): Promise<Settled<T>>;
export async function eventually<T>(what: string, probe: () => T | Promise<T>, opts: EventuallyOptions<T>): Promise<T>;
export async function eventually<T>(what: string, probe: () => T | Promise<T>, opts: EventuallyOptions<T> = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = opts.intervalMs ?? DEFAULT_INTERVAL_MS;
  const accepts = opts.until ?? ((value: T) => value !== undefined && value !== null && value !== false);
  const started = Date.now();
  let tries = 0;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    tries++;
    try {
      const value = await probe();
      last = { value };
      if (accepts(value) !== false) return value;
    } catch (error) {
      last = { error };
    }
    const elapsed = Date.now() - started;
    if (elapsed >= timeoutMs) throw timedOut(what, elapsed, tries, last);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, timeoutMs - elapsed))));
  }
}

function timedOut(what: string, elapsedMs: number, tries: number, last: { value: unknown } | { error: unknown } | undefined): Error {
  const seen =
    last === undefined
      ? 'nothing'
      : 'error' in last
        ? `this error: ${describeError(last.error)}`
        : `this value: ${inspect(last.value, { depth: 4, breakLength: Infinity, maxStringLength: 2000 })}`;
  const message = `eventually: gave up waiting for ${what} after ${(elapsedMs / 1000).toFixed(1)} s and ${tries} ${tries === 1 ? 'try' : 'tries'}; the last try gave ${seen}`;
  return last && 'error' in last ? new Error(message, { cause: last.error }) : new Error(message);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return inspect(error, { depth: 4, breakLength: Infinity });
}
