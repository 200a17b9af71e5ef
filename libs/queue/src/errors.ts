/**
 * Errors of the job layer, with a stable `code` (jose's JOSEError style). Not an HTTP error:
 * a service that enqueues on a request path maps the code to its own error dialect
 * (e.g. `queue_unavailable` to 503).
 */
export type QueueErrorCode =
  | 'invalid_job_name'
  | 'invalid_job_definition'
  | 'invalid_catalog'
  | 'unknown_job'
  | 'invalid_payload'
  | 'invalid_job_id'
  | 'handler_mismatch'
  | 'invalid_options'
  | 'queue_unavailable'
  | 'job_failed'
  | 'wait_timeout';

export class QueueError extends Error {
  constructor(
    readonly code: QueueErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'QueueError';
  }
}

/**
 * A job failure its handler has already logged as it should be read (one `warn` line, no stack: a service that is not
 * up yet). The job still fails and is counted as failed; the workers do not log it a second time.
 */
export class LoggedJobFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoggedJobFailure';
  }
}
