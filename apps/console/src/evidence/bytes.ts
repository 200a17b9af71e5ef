// Byte encodings the evidence checks read (hex digests, base64 signatures, base64url JWS parts and
// JWK members), written over Bytes and atob so they run in a browser and in Node alike.

/** Bytes over a plain ArrayBuffer (what WebCrypto takes). */
export type Bytes = Uint8Array<ArrayBuffer>;

const DIGEST = /^sha256:([0-9a-f]{64})$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Whether `s` is `sha256:` followed by 64 lowercase hex digits (the wire form of every hash). */
export const isDigestText = (s: unknown): s is string => typeof s === 'string' && DIGEST.test(s);

/** `sha256:<hex>` → its 32 bytes; throws on any other text. */
export function digestBytes(digest: string): Bytes {
  const m = DIGEST.exec(digest);
  if (!m) throw new TypeError(`not a sha256:<64 lowercase hex> digest: ${JSON.stringify(digest)}`);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(m[1].slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** 32 bytes → `sha256:<hex>`. */
export const toDigest = (bytes: Bytes): string => `sha256:${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;

function fromBinary(binary: string): Bytes {
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Standard base64 with padding (the ledger's signatures); null when it is anything else. */
export function base64Bytes(text: string): Bytes | null {
  return STRICT_BASE64.test(text) ? fromBinary(atob(text)) : null;
}

/** Unpadded base64url (JWS parts, JWK members); null when it is anything else. */
export function base64urlBytes(text: string): Bytes | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBinary(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)));
}

export const utf8 = (text: string): Bytes => new Uint8Array(new TextEncoder().encode(text));

export function sameBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
