/**
 * The registry could not answer: unreachable or timed out (`registry_unreachable`), or it answered
 * 5xx, 401 (a token mismatch is a deployment fault, not the caller's) or 429 (`registry_unavailable`).
 * A retry may succeed; verdict answers 503 meanwhile, the worker's job fails and BullMQ retries it.
 */
export class RegistryUnavailableError extends Error {
  constructor(
    readonly code: 'registry_unreachable' | 'registry_unavailable',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryUnavailableError';
  }
}

/** The registry refused the request for a reason a retry will not change (another 4xx); `detail` is its error body's. */
export class RegistryRejectedError extends Error {
  readonly code = 'registry_rejected';
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`registry answered ${status}: ${detail}`);
    this.name = 'RegistryRejectedError';
  }
}

/**
 * The ledger could not answer: unreachable or timed out (`ledger_unreachable`), or it answered 5xx,
 * 401 (a token mismatch is a deployment fault) or 429 (`ledger_unavailable`). A retry may succeed:
 * the worker's seal job fails and BullMQ retries it; client_ref keeps the retry from sealing twice.
 */
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

/** The ledger refused the request for a reason a retry will not change (another 4xx); `detail` is its error body's `message`. */
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
