/**
 * One error class with a stable code and an HTTP status (jose's JOSEError style).
 * Services throw it; the service's error dialect renders it in that document's body shape.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Problems the HTTP layer itself detects, before any controller runs. */
export type ProblemKind =
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'validation_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * How a service speaks errors: each of the three documents has its own body shape and codes
 * (docs/verdicts.md "Errors"). A dialect turns a generic problem into an AppError and renders bodies.
 */
export interface ErrorDialect {
  problem(kind: ProblemKind, message: string, fields?: FieldProblem[]): AppError;
  body(error: AppError, errorId?: string): unknown;
}
