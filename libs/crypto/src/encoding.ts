import { CryptoError } from './errors';

// Buffer.from(s, 'base64' | 'hex') silently skips invalid characters and stops at odd digits, so a
// corrupted key or signature would decode to different bytes instead of failing. These decoders
// accept only the canonical alphabet and check the round trip.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

export function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Strict standard base64 with padding (RFC 4648 section 4). */
export function base64ToBytes(s: string): Uint8Array {
  if (!BASE64.test(s)) throw new CryptoError('malformed_encoding', 'not base64');
  const bytes = Buffer.from(s, 'base64');
  if (bytes.toString('base64') !== s) throw new CryptoError('malformed_encoding', 'not canonical base64');
  return toUint8(bytes);
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** Strict unpadded base64url (RFC 4648 section 5), as used in JWK and JWS (RFC 7515 section 2). */
export function base64UrlToBytes(s: string): Uint8Array {
  if (!BASE64URL.test(s) || s.length % 4 === 1) throw new CryptoError('malformed_encoding', 'not base64url');
  const bytes = Buffer.from(s, 'base64url');
  if (bytes.toString('base64url') !== s) throw new CryptoError('malformed_encoding', 'not canonical base64url');
  return toUint8(bytes);
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Hex with an even number of digits, either case. */
export function hexToBytes(s: string): Uint8Array {
  if (!HEX.test(s)) throw new CryptoError('malformed_encoding', 'not hex');
  return toUint8(Buffer.from(s, 'hex'));
}

/** UTF-8 bytes of a string, or the bytes as given. */
export function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? toUint8(Buffer.from(data, 'utf8')) : data;
}

// A plain Uint8Array view (not a Buffer): @noble/* checks `instanceof Uint8Array` and some
// callers compare with toEqual, where Buffer and Uint8Array differ.
function toUint8(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
