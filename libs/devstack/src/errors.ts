/**
 * The one error type of the devstack: a stable `code` for callers and tests, a message that tells a person what to
 * do next (install a package, free a port, set an env var).
 */
export type DevstackErrorCode =
  | 'postgres_binaries_missing'
  | 'postgres_user_unavailable'
  | 'postgres_start_failed'
  | 'already_running'
  | 'redis_not_installed'
  | 'redis_start_failed'
  | 'port_in_use'
  | 'service_not_ready'
  | 'service_exited'
  | 'invalid_secrets'
  | 'invalid_config'
  | 'app_not_built'
  | 'aborted';

export class DevstackError extends Error {
  override readonly name = 'DevstackError';

  constructor(
    readonly code: DevstackErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
