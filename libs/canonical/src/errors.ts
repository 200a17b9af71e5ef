/** Stable error codes of @arbiter/canonical. */
export type CanonicalErrorCode = 'not_canonicalizable';

/**
 * Thrown when a value has no RFC 8785 representation (undefined, functions, symbols, BigInt,
 * NaN/Infinity, lone surrogates, cycles, binary data). Hashing such a value silently (as
 * JSON.stringify would, by dropping or nulling it) would make two different inputs share a hash.
 */
export class CanonicalizationError extends Error {
  override readonly name = 'CanonicalizationError';
  readonly code: CanonicalErrorCode = 'not_canonicalizable';
  /** JSON-pointer-like location of the offending value ('' = the top level). */
  readonly path: string;

  constructor(message: string, path: string, options?: { cause?: unknown }) {
    super(path ? `${message} at ${path}` : message, options);
    this.path = path;
  }
}
