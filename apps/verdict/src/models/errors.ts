/** Error body (docs/verdicts.md "Errors"): lowercase codes (e.g. missing_credentials, principal_deactivated). */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}
