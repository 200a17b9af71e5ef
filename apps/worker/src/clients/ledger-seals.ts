// The worker's client of the ledger's service seal endpoint (`POST /internal/v1/seals`, guarded by
// X-Internal-Token; docs/operations.md "Seal relay"). Failures map as libs/internal-api's clients do:
// no answer (refused, reset, timed out, aborted), 5xx, 401 and 429 are LedgerUnavailableError (a retry
// may succeed: the job fails and BullMQ retries it), any other 4xx LedgerRejectedError.
import type { LedgerSealItem } from '@arbiter/queue';

export type SealRequest = LedgerSealItem['seal'];

/** A seal the ledger stored (created) or had stored before under the same client_ref (created false). */
export interface SealAccepted {
  ok: true;
  fact_id: string;
  stream_id: string;
  seq: number;
  fact_hash: string;
  created: boolean;
}

/** A seal the database refused on its own; the others of the request still committed. */
export interface SealRefused {
  ok: false;
  status: number;
  code: string;
  message: string;
}

export type SealResult = SealAccepted | SealRefused;

/** What the seal relay's job needs of the ledger. */
export interface LedgerSeals {
  /** One request for the whole batch; the results in request order. */
  seal(seals: SealRequest[], signal?: AbortSignal): Promise<SealResult[]>;
}

export class LedgerUnavailableError extends Error {
  constructor(
    readonly code: 'ledger_unreachable' | 'ledger_unavailable',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LedgerUnavailableError';
  }
}

/** The ledger refused the request as a whole (400 VALIDATION_ERROR and the like): nothing was sealed. */
export class LedgerRejectedError extends Error {
  readonly code = 'ledger_rejected';
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`ledger answered ${status}: ${detail}`);
    this.name = 'LedgerRejectedError';
  }
}

export interface LedgerSealsClientOptions {
  /** The ledger's base URL, e.g. http://127.0.0.1:3003. */
  baseUrl: string;
  /** The INTERNAL_TOKEN shared by the services. */
  token: string;
  /** Per request, in ms (default 30 s). */
  timeoutMs?: number;
  /** Another fetch (tests). */
  fetch?: typeof globalThis.fetch;
}

export class LedgerSealsClient implements LedgerSeals {
  requests = 0;
  private readonly url: string;

  constructor(private readonly opts: LedgerSealsClientOptions) {
    this.url = `${opts.baseUrl.replace(/\/+$/, '')}/internal/v1/seals`;
  }

  async seal(seals: SealRequest[], signal?: AbortSignal): Promise<SealResult[]> {
    this.requests++;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    let response: Response;
    let text: string;
    try {
      response = await (this.opts.fetch ?? globalThis.fetch)(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-internal-token': this.opts.token },
        body: JSON.stringify({ seals }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (err) {
      throw new LedgerUnavailableError('ledger_unreachable', `ledger unreachable (POST /internal/v1/seals): ${(err as Error).message}`);
    }
    const { status } = response;
    if (status >= 500 || status === 401 || status === 429) throw new LedgerUnavailableError('ledger_unavailable', `ledger answered ${status} for POST /internal/v1/seals`, status);
    if (!response.ok) throw new LedgerRejectedError(status, text.slice(0, 500));
    let results: unknown;
    try {
      results = (JSON.parse(text) as { results?: unknown }).results;
    } catch {
      throw new LedgerUnavailableError('ledger_unavailable', 'ledger answered invalid JSON for POST /internal/v1/seals');
    }
    if (!Array.isArray(results) || results.length !== seals.length || !results.every((r) => r && typeof r === 'object' && typeof (r as SealResult).ok === 'boolean')) {
      throw new LedgerUnavailableError('ledger_unavailable', `ledger answered ${Array.isArray(results) ? results.length : 'no'} results for ${seals.length} seals`);
    }
    return results as SealResult[];
  }
}
