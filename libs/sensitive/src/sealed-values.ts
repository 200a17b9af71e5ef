// The plain sensitive values of one record (docs/verdicts.md "Sensitive fields"), kept only as AES-256-GCM
// ciphertext under the subject's encryption key (libs/crypto's encryption blobs), beside the record and never
// inside what is hashed. The subject's keys are stored wrapped under KEY_ENCRYPTION_KEY.
import { createHash } from 'node:crypto';
import { decryptSecret, decryptSecretRotating, encryptSecret } from '@arbiter/crypto';
import { newKey } from './commitment';

/** One subject's keys: the MAC key of its commitments and the encryption key of its values. */
export interface SubjectKeys {
  mac: Buffer;
  enc: Buffer;
}

/**
 * Which key pair sealed a row's values: SHA-256 of a label and the encryption key, in hex. It says nothing of the
 * key (256 random bits), and tells a row sealed under a key an erasure destroyed (another key is there now, or none)
 * from a row whose ciphertext does not open under the very key that sealed it (an integrity failure).
 */
export function keyId(keys: SubjectKeys): string {
  return createHash('sha256').update('arbiter subject key id\0').update(keys.enc).digest('hex');
}

export function newSubjectKeys(): SubjectKeys {
  return { mac: newKey(), enc: newKey() };
}

/** The values by location as one blob under the subject's encryption key; `aad` binds it to its row (e.g. the consultation id). */
export function sealValues(keys: SubjectKeys, values: ReadonlyMap<string, unknown>, aad: string): string {
  return encryptSecret(JSON.stringify(Object.fromEntries(values)), keys.enc, aad);
}

/** The values sealValues sealed; throws CryptoError when the key or the AAD is not the one they were sealed with. */
export function openValues(keys: SubjectKeys, blob: string, aad: string): Record<string, unknown> {
  const { plaintext } = decryptSecretRotating(blob, keys.enc, null, aad);
  return JSON.parse(plaintext.toString('utf8')) as Record<string, unknown>;
}

/** A key (or key pair) wrapped under the key encryption key, bound by `aad` to its row. */
export function wrapKey(key: Buffer, kek: Buffer, aad: string): string {
  return encryptSecret(key, kek, aad);
}

export function wrapSubjectKeys(keys: SubjectKeys, kek: Buffer, aad: string): string {
  return wrapKey(Buffer.concat([keys.mac, keys.enc]), kek, aad);
}

/** Opens a wrapped key under KEY_ENCRYPTION_KEY, or its previous value during a rotation. */
export function unwrapKey(blob: string, kek: Buffer, previous: Buffer | null, aad: string): Buffer {
  return decryptSecretRotating(blob, kek, previous, aad).plaintext;
}

export function unwrapSubjectKeys(blob: string, kek: Buffer, previous: Buffer | null, aad: string): SubjectKeys {
  const both = unwrapKey(blob, kek, previous, aad);
  if (both.length !== 64) throw new Error('a wrapped subject key pair must hold 64 bytes');
  return { mac: both.subarray(0, 32), enc: both.subarray(32) };
}

/**
 * A wrapped key moved under the current key encryption key during a rotation: null when the current key already opens
 * it, else the blob wrapped again under the current key (opened with the previous one). Throws CryptoError
 * decryption_failed when neither opens it.
 */
export function rewrapKey(blob: string, kek: Buffer, previous: Buffer | null, aad: string): string | null {
  const { plaintext, under } = decryptSecretRotating(blob, kek, previous, aad);
  if (under === 'current') return null;
  // The round trip under the current key is checked before anything is written.
  const rewrapped = encryptSecret(plaintext, kek, aad);
  decryptSecret(rewrapped, kek, aad);
  return rewrapped;
}
