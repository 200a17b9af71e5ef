/** Stable error codes of @arbiter/crypto. Callers map them to HTTP answers; the codes never change meaning. */
export type CryptoErrorCode =
  /** A JWS whose signature does not verify under the given key. */
  | 'invalid_signature'
  /** Not a compact JWS, or its header/payload is not a JSON object. */
  | 'malformed_jws'
  /** A JWS whose alg is not the one expected (e.g. not ES256). */
  | 'unsupported_algorithm'
  /** A key of the wrong type, curve or length, or a JWK that does not import. */
  | 'invalid_key'
  /** A KEY_ENCRYPTION_KEY value that is not base64 or hex of exactly 32 bytes. */
  | 'invalid_key_encryption_key'
  /** An encrypted secret that is not of the form v1.<iv>.<tag>.<ciphertext>. */
  | 'malformed_ciphertext'
  /** AES-GCM authentication failed: wrong key, wrong AAD, or tampered data. */
  | 'decryption_failed'
  /** Text that is not valid base64 / base64url / hex. */
  | 'malformed_encoding'
  /** A kid that is not <owner_id>:<epoch>. */
  | 'invalid_kid'
  /** A scheduled rotation asked for while the current key already belongs to this year's epoch. */
  | 'rotation_not_due';

/** The one error class of this library, in the style of jose's JOSEError: match on `code`, not message. */
export class CryptoError extends Error {
  override readonly name = 'CryptoError';

  constructor(
    readonly code: CryptoErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
