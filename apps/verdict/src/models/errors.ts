/** Document 1 error body: lowercase codes (e.g. missing_credentials, principal_deactivated). */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}
