import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { base64UrlToBytes } from './encoding';
import { CryptoError } from './errors';

// Private keys are stored encrypted with AES-256-GCM under KEY_ENCRYPTION_KEY (docs/verdicts.md "Signing keys").
// Blob format, self-describing so the scheme can change later: v1.<iv>.<tag>.<ciphertext>, each part
// base64url without padding; 12-byte random IV (NIST SP 800-38D section 8.2.2), 16-byte tag.
// The optional AAD binds a blob to its context (e.g. the kid), so a stored private key cannot be
// swapped onto another record undetected.

const VERSION = 'v1';
const KEY_LENGTH = 32;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/** A new random key encryption key, base64 of 32 bytes (the KEY_ENCRYPTION_KEY format). */
export function generateKeyEncryptionKey(): string {
  return randomBytes(KEY_LENGTH).toString('base64');
}

/**
 * Parses KEY_ENCRYPTION_KEY: 64 hex digits, or base64 / base64url (padding optional) of exactly
 * 32 bytes. Anything else throws invalid_key_encryption_key; the message never echoes the value.
 */
export function parseKeyEncryptionKey(value: string): Buffer {
  const s = typeof value === 'string' ? value.trim() : '';
  // Hex first: 64 hex digits are also valid base64 text (of 48 bytes).
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(s) || /^[A-Za-z0-9_-]{43}$/.test(s)) {
    const standard = s.replace(/=$/, '').replace(/-/g, '+').replace(/_/g, '/');
    const key = Buffer.from(standard, 'base64');
    // The 43rd character carries 2 unused bits; the round trip rejects text where they are set.
    if (key.length === KEY_LENGTH && key.toString('base64') === `${standard}=`) return key;
  }
  throw new CryptoError('invalid_key_encryption_key', 'key encryption key must be base64 or 64 hex digits encoding exactly 32 bytes');
}

export function encryptSecret(plaintext: Uint8Array | string, kek: Buffer, aad?: string): string {
  assertKek(kek);
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
  const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/**
 * Decrypts a blob made by encryptSecret with the same key and AAD. A wrong key, wrong AAD or any
 * changed byte throws decryption_failed; a blob that is not v1.<iv>.<tag>.<ciphertext> throws
 * malformed_ciphertext.
 */
export function decryptSecret(blob: string, kek: Buffer, aad?: string): Buffer {
  assertKek(kek);
  const parts = typeof blob === 'string' ? blob.split('.') : [];
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new CryptoError('malformed_ciphertext', `encrypted secret is not of the form ${VERSION}.<iv>.<tag>.<ciphertext>`);
  }
  let iv: Uint8Array;
  let tag: Uint8Array;
  let ciphertext: Uint8Array;
  try {
    [iv, tag, ciphertext] = parts.slice(1).map(base64UrlToBytes) as [Uint8Array, Uint8Array, Uint8Array];
  } catch (err) {
    throw new CryptoError('malformed_ciphertext', 'encrypted secret parts are not base64url', { cause: err });
  }
  // A fixed tag length matters: GCM would otherwise accept a truncated (weaker) tag.
  if (iv.length !== IV_LENGTH || tag.length !== TAG_LENGTH) {
    throw new CryptoError('malformed_ciphertext', 'encrypted secret has a wrong IV or tag length');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
    if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (err) {
    throw new CryptoError('decryption_failed', 'encrypted secret does not decrypt (wrong key, wrong AAD or tampered)', {
      cause: err,
    });
  }
}

function assertKek(kek: Buffer): void {
  if (!(kek instanceof Uint8Array) || kek.length !== KEY_LENGTH) {
    throw new CryptoError('invalid_key_encryption_key', `key encryption key must be ${KEY_LENGTH} bytes`);
  }
}

/**
 * decryptSecret during a rotation of KEY_ENCRYPTION_KEY: with the current key, or else with the previous one (when
 * given), saying which opened it. Throws decryption_failed when neither does; a malformed blob throws at once.
 */
export function decryptSecretRotating(
  blob: string,
  current: Buffer,
  previous: Buffer | null | undefined,
  aad?: string,
): { plaintext: Buffer; under: 'current' | 'previous' } {
  try {
    return { plaintext: decryptSecret(blob, current, aad), under: 'current' };
  } catch (err) {
    if (!previous || !(err instanceof CryptoError) || err.code !== 'decryption_failed') throw err;
    return { plaintext: decryptSecret(blob, previous, aad), under: 'previous' };
  }
}
