// The two signatures of a consultation's evidence, checked with WebCrypto alone: the verdict's ES256
// compact JWS (RFC 7515, docs/verdicts.md "Signing keys") and the ledger's Ed25519 signature over the
// RFC 8785 form of a checkpoint without `signature` (docs/evidence.md "Checkpoints").
import { canonicalJson } from '@arbiter/canonical/json';
import type { KeySet, VerificationKey } from '@arbiter/client/browser';
import { base64Bytes, base64urlBytes, utf8 } from './bytes';

type Rec = Record<string, unknown>;

/** Why a verdict did not verify: the SDK's VerdictVerificationError codes (docs/sdk.md), so both report alike. */
export type VerdictFailure =
  'malformed' | 'unsupported_alg' | 'unknown_kid' | 'invalid_signature' | 'tenant_mismatch' | 'key_not_valid_at_iat';

export class VerdictCheckError extends Error {
  constructor(
    readonly code: VerdictFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface CheckedVerdict {
  kid: string;
  key: VerificationKey;
  claims: Rec;
  expiresAt: Date;
  expired: boolean;
}

function jsonPart(part: string): Rec | null {
  const bytes = base64urlBytes(part);
  if (!bytes) return null;
  try {
    const v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null;
  } catch {
    return null;
  }
}

/** The header and claims of a compact JWS without verifying anything (display and the kid check only). */
export function decodeJwsUnverified(jws: string): { header: Rec; claims: Rec } | null {
  const parts = jws.split('.');
  if (parts.length !== 3) return null;
  const header = jsonPart(parts[0]);
  const claims = jsonPart(parts[1]);
  return header && claims ? { header, claims } : null;
}

const STRING_CLAIMS = ['iss', 'sub', 'jti', 'tenant_id', 'verdict', 'action', 'resource', 'context_hash', 'normative_hash'];

/**
 * Verifies a signed verdict with one of `keySet`'s keys, as the SDK's verifyVerdict does with expired
 * verdicts allowed (a record stays evidence after the right to act has ended); throws VerdictCheckError.
 */
export async function verifyVerdictJws(jws: string, keySet: KeySet, now: number): Promise<CheckedVerdict> {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p)))
    throw new VerdictCheckError('malformed', 'not a compact JWS (three base64url segments separated by dots)');
  const header = jsonPart(parts[0]);
  if (!header) throw new VerdictCheckError('malformed', 'the protected header is not base64url JSON');
  if (header.alg !== 'ES256') throw new VerdictCheckError('unsupported_alg', `alg ${String(header.alg)} is not ES256`);
  const kid = header.kid;
  if (typeof kid !== 'string' || !kid) throw new VerdictCheckError('malformed', 'the protected header has no kid');
  const keys = Array.isArray(keySet?.keys) ? keySet.keys : [];
  const key = keys.find((k) => k.kid === kid);
  if (!key)
    throw new VerdictCheckError(
      'unknown_kid',
      `no key ${kid} in the tenant's key set (${keys.length} keys: ${keys.map((k) => k.kid).join(', ') || 'none'})`,
    );
  const signature = base64urlBytes(parts[2]);
  let valid: boolean;
  try {
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: key.x, y: key.y, ext: true },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    valid =
      signature !== null &&
      signature.length === 64 &&
      (await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, signature, utf8(`${parts[0]}.${parts[1]}`)));
  } catch (err) {
    throw new VerdictCheckError('malformed', `the JWS or key ${kid} could not be used: ${(err as Error).message}`);
  }
  if (!valid) throw new VerdictCheckError('invalid_signature', `the ES256 signature does not verify with key ${kid}`);
  const claims = jsonPart(parts[1]);
  if (!claims) throw new VerdictCheckError('malformed', 'the payload is not a UTF-8 JSON object');
  const bad = [
    ...STRING_CLAIMS.filter((n) => typeof claims[n] !== 'string'),
    ...['iat', 'exp'].filter((n) => !Number.isInteger(claims[n])),
    ...['scope', 'parameters'].filter((n) => !claims[n] || typeof claims[n] !== 'object' || Array.isArray(claims[n])),
    ...(Array.isArray(claims.cited_rule_version_ids) ? [] : ['cited_rule_version_ids']),
  ];
  if (bad.length) throw new VerdictCheckError('malformed', `claims missing or of the wrong type: ${bad.join(', ')}`);
  // kid is <tenant_id>:<epoch> (docs/verdicts.md "Signing keys"): a key of another tenant cannot vouch for this one.
  if (!kid.startsWith(`${String(claims.tenant_id)}:`))
    throw new VerdictCheckError('tenant_mismatch', `kid ${kid} does not belong to tenant ${String(claims.tenant_id)}`);
  // iat is requested_at rounded down to the second, not_before has milliseconds: 5 s of tolerance, as the SDK.
  const iatMs = (claims.iat as number) * 1000;
  const notBefore = Date.parse(key.not_before);
  const notAfter = key.not_after === null || key.not_after === undefined ? null : Date.parse(key.not_after);
  if (Number.isNaN(notBefore) || (notAfter !== null && Number.isNaN(notAfter)))
    throw new VerdictCheckError('malformed', `key ${kid} has an unreadable validity window`);
  if (iatMs < Math.floor(notBefore / 1000) * 1000 - 5000 || (notAfter !== null && iatMs >= notAfter))
    throw new VerdictCheckError(
      'key_not_valid_at_iat',
      `issued at ${new Date(iatMs).toISOString()}, outside key ${kid}'s window [${key.not_before}, ${key.not_after ?? '∞'})`,
    );
  const expiresAt = new Date((claims.exp as number) * 1000);
  return { kid, key, claims, expiresAt, expired: now >= expiresAt.getTime() };
}

/** Whether `signature` (base64) is the key's Ed25519 signature over the RFC 8785 form of `unsigned`; a string says why it could not be checked. */
export async function ed25519SignatureValid(key: Rec, unsigned: Rec, signature: unknown): Promise<boolean | string> {
  const bytes = typeof signature === 'string' ? base64Bytes(signature) : null;
  if (!bytes) return 'signature is not base64';
  try {
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      { kty: 'OKP', crv: 'Ed25519', x: String(key.x), ext: true },
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    return await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, bytes, utf8(canonicalJson(unsigned as never)));
  } catch (err) {
    return `the signature could not be checked: ${(err as Error).message}`;
  }
}
