import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, hexToBytes, toBytes } from './encoding';
import { CryptoError } from './errors';

// Webhooks are signed with ECDSA P-256 over SHA-256 of `<timestamp>.<raw body>`, the signature
// written as hex of the 64-byte r||s form (docs/verdicts.md "Signing keys"). That is exactly what
// node:crypto / OpenSSL / WebCrypto verify with `verify('sha256', msg, {key, dsaEncoding:
// 'ieee-p1363'}, sig)`, so receivers need no special library.

export const P256_PRIVATE_KEY_LENGTH = 32;
const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

export interface P256KeyPair {
  /** 32-byte scalar. */
  privateKey: Uint8Array;
  /** 65-byte uncompressed SEC1 point (0x04 || x || y). */
  publicKey: Uint8Array;
}

export interface P256PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export function generateP256KeyPair(): P256KeyPair {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey, publicKey: p256.getPublicKey(privateKey, false) };
}

export function p256PublicKeyFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  assertPrivateKey(privateKey);
  return p256.getPublicKey(privateKey, false);
}

/**
 * Hex of the 64-byte r||s signature. `prehash: true` makes noble sign SHA-256(message), the
 * digest ECDSA-SHA256 (FIPS 186-5) defines; noble v2 takes the message, not a digest. Signing is
 * deterministic (RFC 6979) and low-S; verifiers accept either S.
 */
export function p256SignHex(message: Uint8Array | string, privateKey: Uint8Array): string {
  assertPrivateKey(privateKey);
  const signature = p256.sign(toBytes(message), privateKey, { prehash: true, lowS: true, format: 'compact' });
  return bytesToHex(signature);
}

/**
 * True when sigHex (128 hex digits, r||s) is a valid ECDSA-SHA256 signature of message.
 * `lowS: false`: noble rejects high-S signatures by default, which are valid ECDSA and what
 * node:crypto, OpenSSL and jose produce about half the time (docs/development.md "Crypto costs").
 * The public key may be compressed (33 bytes) or uncompressed (65 bytes); one that is not a
 * point of P-256 throws invalid_key, a bad signature only gives false.
 */
export function p256VerifyHex(sigHex: string, message: Uint8Array | string, publicKey: Uint8Array): boolean {
  const point = parsePublicKey(publicKey);
  if (typeof sigHex !== 'string' || !SIGNATURE_HEX.test(sigHex)) return false;
  try {
    return p256.verify(hexToBytes(sigHex), toBytes(message), point, { prehash: true, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}

/** RFC 7518 section 6.2 public EC JWK. */
export function p256PublicKeyToJwk(publicKey: Uint8Array): P256PublicJwk {
  const point = parsePublicKey(publicKey);
  return {
    kty: 'EC',
    crv: 'P-256',
    x: bytesToBase64Url(point.subarray(1, 33)),
    y: bytesToBase64Url(point.subarray(33, 65)),
  };
}

/** Uncompressed public key bytes from a JWK (e.g. a receiver's copy of /.well-known/webhook-key). */
export function p256PublicKeyFromJwk(jwk: { kty?: string; crv?: string; x?: string; y?: string }): Uint8Array {
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new CryptoError('invalid_key', 'not an EC P-256 JWK');
  }
  let x: Uint8Array;
  let y: Uint8Array;
  try {
    x = base64UrlToBytes(jwk.x);
    y = base64UrlToBytes(jwk.y);
  } catch (err) {
    throw new CryptoError('invalid_key', 'JWK coordinates are not base64url', { cause: err });
  }
  if (x.length !== 32 || y.length !== 32) throw new CryptoError('invalid_key', 'JWK coordinates must be 32 bytes');
  const bytes = new Uint8Array(65);
  bytes[0] = 0x04;
  bytes.set(x, 1);
  bytes.set(y, 33);
  return parsePublicKey(bytes);
}

/** SPKI PEM of a public key, via node:crypto. */
export function p256PublicKeyToPem(publicKey: Uint8Array): string {
  const jwk = p256PublicKeyToJwk(publicKey);
  return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string;
}

/** Validates a SEC1 public key (on the curve, not infinity) and returns it uncompressed. */
function parsePublicKey(publicKey: Uint8Array): Uint8Array {
  if (!(publicKey instanceof Uint8Array) || (publicKey.length !== 33 && publicKey.length !== 65)) {
    throw new CryptoError('invalid_key', 'P-256 public key must be 33 or 65 SEC1 bytes');
  }
  try {
    const point = p256.Point.fromBytes(publicKey);
    point.assertValidity();
    return point.toBytes(false);
  } catch (err) {
    throw new CryptoError('invalid_key', 'not a point of P-256', { cause: err });
  }
}

function assertPrivateKey(privateKey: Uint8Array): void {
  if (!(privateKey instanceof Uint8Array) || !p256.utils.isValidSecretKey(privateKey)) {
    throw new CryptoError('invalid_key', 'P-256 private key must be a 32-byte scalar in [1, n-1]');
  }
}
