/** Error body (docs/ledger-formats.md "Errors"): VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED, INTERNAL_ERROR, RATE_LIMITED, FORBIDDEN. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}
