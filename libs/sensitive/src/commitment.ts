// Commitments and subject digests (docs/verdicts.md "Sensitive fields"). A commitment is
// `hmac-sha256:<hex>` = HMAC-SHA256 (RFC 2104) under the subject's MAC key of the RFC 8785 canonical JSON of
// `[location, value]`: binding (the record's hashes cover it) and hiding while the key lives; once the key is
// destroyed nobody can test a guess against it. A subject is stored only as the HMAC-SHA256 of the canonical JSON of
// its value under a tenant secret, so nothing is derived from the subject but that digest.
import { createHmac, randomBytes } from 'node:crypto';
import { canonicalJson } from '@arbiter/canonical';

export const COMMITMENT_PREFIX = 'hmac-sha256:';
/** The one member of a commitment; a request never carries it (the gateway alone makes commitments). */
export const COMMITMENT_MEMBER = '$commit';
const KEY_LENGTH = 32;

/** The value a record holds in a sensitive value's place. */
export interface Commitment {
  $commit: string;
}

function hmac(key: Uint8Array, text: string): string {
  if (key.length !== KEY_LENGTH) throw new Error(`an HMAC key must be ${KEY_LENGTH} bytes`);
  return `${COMMITMENT_PREFIX}${createHmac('sha256', key).update(text, 'utf8').digest('hex')}`;
}

/** The commitment to `value` found at `location` (e.g. `parameters.card`). Throws CanonicalizationError on a value JSON cannot carry. */
export function commit(macKey: Uint8Array, location: string, value: unknown): Commitment {
  return { $commit: hmac(macKey, canonicalJson([location, value])) };
}

/** Whether `v` is a commitment as the record holds it. */
export function isCommitment(v: unknown): v is Commitment {
  return (
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.keys(v).length === 1 &&
    typeof (v as Commitment).$commit === 'string' &&
    (v as Commitment).$commit.startsWith(COMMITMENT_PREFIX)
  );
}

/** The stored name of a data subject: `hmac-sha256:<hex>` under the tenant secret. */
export function subjectDigest(tenantSecret: Uint8Array, subject: string): string {
  return hmac(tenantSecret, canonicalJson(subject));
}

/** A window key's stand-in for a sensitive value (docs/verdicts.md "Sensitive fields"): keyed by the tenant, so a window still groups one value. */
export function keyDigest(tenantSecret: Uint8Array, keyPath: string, value: unknown): { $digest: string } {
  return { $digest: hmac(tenantSecret, canonicalJson([keyPath, value])) };
}

/** A new random 32-byte key (a subject's MAC or encryption key, a tenant secret). */
export function newKey(): Buffer {
  return randomBytes(KEY_LENGTH);
}
