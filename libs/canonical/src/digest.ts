import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/** The `sha256:<64 lowercase hex>` form every hash of the system is written in (docs/verdicts.md "Hashes and the signed verdict"). */
export type Digest = `sha256:${string}`;

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** Placeholder digest (e.g. the `prev` of the first element of a hash chain). */
export const ZERO_DIGEST: Digest = `sha256:${'0'.repeat(64)}`;

/** Lowercase hex SHA-256; strings are hashed as their UTF-8 bytes (one-shot crypto.hash: no Hash object). */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** `sha256:` + hex SHA-256 of the UTF-8 bytes of the RFC 8785 canonical JSON of value. */
export function sha256Digest(value: unknown): Digest {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

/** True for a well-formed digest string (lowercase hex only, as the system writes them). */
export function isDigest(s: unknown): s is Digest {
  return typeof s === 'string' && DIGEST_PATTERN.test(s);
}
