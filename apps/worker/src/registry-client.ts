import type { WebhookDeliverResult } from '@arbiter/queue';

/** What POST /internal/v1/outbox/relay answers (docs/webhooks.md "Internal API used by the worker"). */
export interface RelayAnswer {
  fanned_out: number;
  deliveries_created: number;
  dispatch: Array<{ delivery_id: string; attempt: number }>;
}

/** The registry could not be reached, or answered with an error; the code says which. */
export class RegistryCallError extends Error {
  constructor(
    readonly code: 'registry_unreachable' | 'registry_error',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryCallError';
  }
}

/**
 * The worker's client of the registry's internal API (README.md "Architecture": service token,
 * `X-Internal-Token`). The worker holds no database URL and no key: the registry claims, signs,
 * sends and records; the worker decides when, through BullMQ.
 */
export class RegistryClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {}

  /** Fans the outbox out and leases up to `limit` due deliveries to this caller. */
  relay(limit: number): Promise<RelayAnswer> {
    return this.post('/internal/v1/outbox/relay', { limit });
  }

  /** Hands back deliveries that could not be enqueued. */
  release(deliveryIds: string[]): Promise<{ released: number }> {
    return this.post('/internal/v1/outbox/release', { delivery_ids: deliveryIds });
  }

  /** Runs one attempt (at most once per delivery and attempt, whatever the number of callers). */
  attempt(deliveryId: string, attempt: number, signal?: AbortSignal): Promise<WebhookDeliverResult> {
    return this.post(`/internal/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}/attempts`, { attempt }, signal);
  }

  private async post<T>(path: string, body: object, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    try {
      res = await fetch(new URL(path, this.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': this.token },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new RegistryCallError('registry_unreachable', `registry unreachable at ${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new RegistryCallError('registry_error', `registry answered ${res.status} at ${path}: ${text.slice(0, 300)}`, res.status);
    return JSON.parse(text) as T;
  }
}
