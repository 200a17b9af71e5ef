// The one client of the ledger's internal API (docs/ledger-formats.md "Internal API"): the worker's
// seal relay calls POST /internal/v1/seals through it, the verdict's evidence route GET /internal/v1/inclusion, its ledger
// citations GET /internal/v1/tenants/{tenant_id}/facts/{fact_id} and GET /internal/v1/ledger-keys. Requests are typed by the paths generated
// from apps/ledger/openapi.internal.json (openapi-fetch); failures are mapped as for the registry
// (call.ts): no answer, 5xx, 401 and 429 are LedgerUnavailableError, another 4xx (a batch the
// ledger refuses whole: 400) is LedgerRejectedError with the ledger's message.
import type { Client } from 'openapi-fetch';
import { internalApi, mappedCall, type Answer, type CallErrors, type InternalClientOptions } from './call';
import { LedgerRejectedError, LedgerUnavailableError } from './errors';
import type { paths } from './generated/ledger-internal';
import type { AuditInclusion, CitedFact, LedgerKeySet, ServiceSeal, ServiceSealAnswer } from './ledger-types';

/** What this client is made with (InternalClientOptions); `timeoutMs` defaults to 30 s: a batch of 1000 seals waits for its commits. */
export type LedgerInternalClientOptions = InternalClientOptions;

const LEDGER_ERRORS: CallErrors = {
  unreachable: (message) => new LedgerUnavailableError('ledger_unreachable', message),
  unavailable: (message, status) => new LedgerUnavailableError('ledger_unavailable', message, status),
  rejected: (status, detail) => new LedgerRejectedError(status, detail),
};

export class LedgerInternalClient {
  /** Requests made so far (observability, and what tests watch). */
  requests = 0;
  private readonly api: Client<paths>;
  private readonly timeoutMs: number;

  constructor(opts: LedgerInternalClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.api = internalApi<paths>(opts);
  }

  /**
   * Seals 1 to 1000 audit facts; one result per seal, in the order given. A result with `ok: false`
   * is a seal the ledger's database refused on its own (the others are sealed).
   */
  seal(seals: ServiceSeal[], signal?: AbortSignal): Promise<ServiceSealAnswer> {
    return this.call('POST /seals', (s) => this.api.POST('/internal/v1/seals', { body: { seals }, signal: s }), signal);
  }

  /**
   * The fact sealed under client_ref in an audit stream with its inclusion proof and checkpoint
   * (GET /internal/v1/inclusion); null while no fact has that client_ref. Any other refusal is
   * LedgerUnavailableError: the caller cannot tell "not sealed" from a ledger that cannot answer.
   */
  async inclusion(streamId: string, clientRef: string, signal?: AbortSignal): Promise<AuditInclusion | null> {
    try {
      return await this.call(
        'GET /inclusion',
        (s) => this.api.GET('/internal/v1/inclusion', { params: { query: { stream_id: streamId, client_ref: clientRef } }, signal: s }),
        signal,
      );
    } catch (err) {
      if (!(err instanceof LedgerRejectedError)) throw err;
      if (err.status === 404) return null;
      throw new LedgerUnavailableError('ledger_unavailable', `ledger answered ${err.status} for GET /inclusion`, err.status);
    }
  }

  /**
   * A fact of the tenant with the fact before it and its inclusion proof under a checkpoint signed
   * now (GET /internal/v1/tenants/{tenant_id}/facts/{fact_id}); null when the tenant has no fact of
   * that id (unknown, or another tenant's). Any other refusal is LedgerUnavailableError.
   */
  async citedFact(tenantId: string, factId: string, signal?: AbortSignal): Promise<CitedFact | null> {
    try {
      return await this.call(
        'GET /tenants/{tenant_id}/facts/{fact_id}',
        (s) =>
          this.api.GET('/internal/v1/tenants/{tenant_id}/facts/{fact_id}', {
            params: { path: { tenant_id: tenantId, fact_id: factId } },
            signal: s,
          }),
        signal,
      );
    } catch (err) {
      if (!(err instanceof LedgerRejectedError)) throw err;
      if (err.status === 404) return null;
      throw new LedgerUnavailableError(
        'ledger_unavailable',
        `ledger answered ${err.status} for GET /tenants/{tenant_id}/facts/{fact_id}`,
        err.status,
      );
    }
  }

  /** The ledger's published signing keys, every one ever used with its window (GET /internal/v1/ledger-keys). */
  async ledgerKeys(signal?: AbortSignal): Promise<LedgerKeySet> {
    try {
      return await this.call('GET /ledger-keys', (s) => this.api.GET('/internal/v1/ledger-keys', { signal: s }), signal);
    } catch (err) {
      if (!(err instanceof LedgerRejectedError)) throw err;
      throw new LedgerUnavailableError('ledger_unavailable', `ledger answered ${err.status} for GET /ledger-keys`, err.status);
    }
  }

  private call<T>(what: string, request: (signal: AbortSignal) => Promise<Answer<T>>, signal?: AbortSignal): Promise<T> {
    this.requests++;
    return mappedCall('ledger', what, this.timeoutMs, LEDGER_ERRORS, request, signal);
  }
}
