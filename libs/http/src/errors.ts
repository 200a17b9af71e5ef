import type { Unstorable } from '@arbiter/input';

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
  | 'bad_request'
  | 'internal';

/** Where in a request a value that cannot be stored was found. */
export type InputLocation = 'body' | 'query' | 'path';

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
  /**
   * A value that cannot be stored exactly (docs/development.md "Storable JSON"), named as the service's
   * document names fields. For the query and the path, `path[0]` is the parameter's name.
   */
  unstorable(u: Unstorable, location: InputLocation): AppError;
  body(error: AppError, errorId?: string): unknown;
}

/** Longest id an error echoes whole: the longest a client may choose is a ledger `client_ref` (255 characters). */
const SHOWN_ID_MAX = 256;

/**
 * An id from a request as an error echoes it: whole when it could be one of ours, else its first 64 characters and
 * its length, so a 404 for a 5,000-character id is not 5,000 characters long.
 */
export function shownId(id: string): string {
  return id.length <= SHOWN_ID_MAX ? id : `${id.slice(0, 64)}… (${id.length} characters)`;
}
