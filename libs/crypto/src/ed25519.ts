import { createPublicKey, type JsonWebKey } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { base64ToBytes, bytesToBase64, bytesToBase64Url, toBytes } from './encoding';
import { CryptoError } from './errors';

// Ledger bundles are signed with Ed25519 (RFC 8032) over the canonical JSON of the bundle
// (docs/verdicts.md "Signing keys"). Ed25519 is deterministic: @noble/ed25519 and node:crypto produce the
// same bytes for the same key and message (checked in ed25519.spec.ts).

// @noble/ed25519 v3's synchronous API needs a SHA-512 implementation wired in once.
ed.hashes.sha512 = sha512;

export const ED25519_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;

export interface Ed25519KeyPair {
  /** The 32-byte RFC 8032 seed (not the 64-byte expanded key). */
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { secretKey, publicKey } = ed.keygen();
  return { privateKey: secretKey, publicKey };
}

export function ed25519PublicKeyFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  assertKeyLength(privateKey, 'private');
  return ed.getPublicKey(privateKey);
}

/** 64-byte signature; strings are signed as their UTF-8 bytes. */
export function ed25519Sign(message: Uint8Array | string, privateKey: Uint8Array): Uint8Array {
  assertKeyLength(privateKey, 'private');
  return ed.sign(toBytes(message), privateKey);
}

/**
 * False for any signature that does not verify, including one of the wrong length. Uses RFC 8032
 * verification (`zip215: false`), the rule node:crypto/OpenSSL and other outside verifiers apply,
 * rather than noble's more permissive ZIP-215 default. A public key of the wrong length is a
 * configuration error and throws invalid_key.
 */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array | string, publicKey: Uint8Array): boolean {
  assertKeyLength(publicKey, 'public');
  if (signature.length !== ED25519_SIGNATURE_LENGTH) return false;
  try {
    return ed.verify(signature, toBytes(message), publicKey, { zip215: false });
  } catch {
    // noble throws on encodings that are not points/scalars; to a verifier that is just "invalid".
    return false;
  }
}

/** Standard base64 of a key or signature, the form the ledger publishes (docs/verdicts.md "Signing keys"). */
export function ed25519ToBase64(bytes: Uint8Array): string {
  return bytesToBase64(bytes);
}

/** Strict base64 decoding; throws malformed_encoding on bad text. */
export function ed25519FromBase64(s: string): Uint8Array {
  return base64ToBytes(s);
}

/** RFC 8037 section 2 OKP JWK of a public key. */
export function ed25519PublicKeyToJwk(publicKey: Uint8Array): { kty: 'OKP'; crv: 'Ed25519'; x: string } {
  assertKeyLength(publicKey, 'public');
  return { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(publicKey) };
}

/** SPKI PEM of a public key, via node:crypto (which also rejects bytes that are not a valid key). */
export function ed25519PublicKeyToPem(publicKey: Uint8Array): string {
  const jwk = ed25519PublicKeyToJwk(publicKey);
  try {
    return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string;
  } catch (err) {
    throw new CryptoError('invalid_key', 'not an Ed25519 public key', { cause: err });
  }
}

function assertKeyLength(key: Uint8Array, kind: 'private' | 'public'): void {
  if (!(key instanceof Uint8Array) || key.length !== ED25519_KEY_LENGTH) {
    throw new CryptoError('invalid_key', `Ed25519 ${kind} key must be ${ED25519_KEY_LENGTH} bytes`);
  }
}
