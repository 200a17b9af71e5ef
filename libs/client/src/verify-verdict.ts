// Verifies a signed verdict (docs/verdicts.md "Signed verdict", "Verifying a verdict
// offline"): a compact JWS (RFC 7515) with ES256 (RFC 7518 section 3.4) under the key of the tenant's
// JWKS named by the header's kid; iat inside that key's [not_before, not_after) window; exp not passed.
import { parseIsoInstant } from '@arbiter/input';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { VerdictVerificationError } from './errors';
import { assertKeySet, remoteJwks, StaticJwks, type JwksSource } from './jwks';
import type { KeySet, VerificationKey } from './types';

/** The claims of a signed verdict (docs/verdicts.md "Hashes and the signed verdict"). */
export interface VerdictClaims {
  iss: string;
  /** The calling principal. */
  sub: string;
  iat: number;
  exp: number;
  /** The consultation id. */
  jti: string;
  tenant_id: string;
  verdict: string;
  action: string;
  resource: string;
  scope: Record<string, unknown>;
  parameters: Record<string, unknown>;
  on_behalf_of: string | null;
  context_hash: string;
  normative_hash: string;
  dominating_rule_id: string | null;
  cited_rule_version_ids: string[];
  [claim: string]: unknown;
}

export interface VerifyVerdictOptions {
  /** The tenant's key set (e.g. a saved copy) or a source of it. */
  jwks?: KeySet | JwksSource;
  /** Where to fetch the key set: cached per its Cache-Control max-age, refetched once on an unknown kid. */
  jwksUrl?: string;
  fetch?: typeof fetch;
  /** The instant to judge exp against (default: now). */
  now?: Date | number;
  /** Seconds of clock skew allowed on exp. Default 0. */
  clockToleranceSeconds?: number;
  /**
   * Seconds iat may precede the key's not_before. iat is when the request arrived, and the gateway makes
   * a tenant's first key (or a new year's) while answering it, so the key can be a moment younger than
   * the verdict it signs. Default 5.
   */
  notBeforeToleranceSeconds?: number;
  /** Historical evidence: a passed exp is reported (`expired: true`) instead of thrown. */
  allowExpired?: boolean;
  /**
   * Refuse verdicts signed by a key that has been retired since (not_after set), even inside its
   * window: the policy for in-flight verdicts after an emergency rotation (docs/verdicts.md "Versioning"). Default false.
   */
  refuseRetiredKeys?: boolean;
  /** The tenant (tnt- id) the verdict must belong to: its tenant_id claim and its kid. */
  tenantId?: string;
}

export interface VerifiedVerdict {
  claims: VerdictClaims;
  kid: string;
  key: VerificationKey;
  issuedAt: Date;
  expiresAt: Date;
  /** Only ever true with allowExpired. */
  expired: boolean;
}

const STRING_CLAIMS = ['iss', 'sub', 'jti', 'tenant_id', 'verdict', 'action', 'resource', 'context_hash', 'normative_hash'] as const;

function sourceOf(opts: VerifyVerdictOptions): JwksSource {
  if (opts.jwks) return 'getKeySet' in opts.jwks ? opts.jwks : new StaticJwks(assertKeySet(opts.jwks, 'the key set given'));
  if (opts.jwksUrl) return remoteJwks(opts.jwksUrl, { fetch: opts.fetch });
  throw new VerdictVerificationError('jwks_unavailable', 'no key set: give jwks or jwksUrl');
}

function decodeClaims(payload: Uint8Array, kid: string): VerdictClaims {
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    throw new VerdictVerificationError('malformed', 'the payload is not UTF-8 JSON', { kid });
  }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims))
    throw new VerdictVerificationError('malformed', 'the payload is not a JSON object', { kid });
  const c = claims as Record<string, unknown>;
  const bad = [
    ...STRING_CLAIMS.filter((n) => typeof c[n] !== 'string'),
    ...(['iat', 'exp'] as const).filter((n) => !Number.isInteger(c[n])),
    ...(['scope', 'parameters'] as const).filter((n) => !c[n] || typeof c[n] !== 'object' || Array.isArray(c[n])),
    ...(Array.isArray(c.cited_rule_version_ids) ? [] : ['cited_rule_version_ids']),
  ];
  if (bad.length)
    throw new VerdictVerificationError('malformed', `claims missing or of the wrong type: ${bad.join(', ')}`, { kid, claims: c });
  return c as VerdictClaims;
}

/** The longest a verdict may be acted on: the upper bound of a tenant's verdict_ttl_seconds (docs/identity.md). */
export const MAX_VERDICT_TTL_SECONDS = 3600;

/** Verifies `jws`; throws VerdictVerificationError whose `code` names the failed check. */
export async function verifyVerdict(jws: string, opts: VerifyVerdictOptions): Promise<VerifiedVerdict> {
  if (typeof jws !== 'string' || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(jws.trim())) {
    throw new VerdictVerificationError('malformed', 'not a compact JWS (three base64url segments separated by dots)');
  }
  jws = jws.trim();
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch (err) {
    throw new VerdictVerificationError('malformed', 'the protected header is not base64url JSON', { cause: err });
  }
  if (header.alg !== 'ES256') throw new VerdictVerificationError('unsupported_alg', `alg ${String(header.alg)} is not ES256`);
  const kid = header.kid;
  if (typeof kid !== 'string' || !kid) throw new VerdictVerificationError('malformed', 'the protected header has no kid');

  const source = sourceOf(opts);
  let keySet = await source.getKeySet();
  let key = keySet.keys.find((k) => k.kid === kid);
  if (!key) {
    // A kid we do not know may be a key made since the key set was cached: look once more.
    keySet = await source.getKeySet({ refresh: true, kid });
    key = keySet.keys.find((k) => k.kid === kid);
  }
  if (!key)
    throw new VerdictVerificationError(
      'unknown_kid',
      `no key ${kid} in the tenant's key set (${keySet.keys.length} keys: ${keySet.keys.map((k) => k.kid).join(', ') || 'none'})`,
      { kid },
    );

  let payload: Uint8Array;
  try {
    const publicKey = await importJWK({ kty: key.kty, crv: key.crv, x: key.x, y: key.y } as JWK, 'ES256');
    ({ payload } = await compactVerify(jws, publicKey, { algorithms: ['ES256'] }));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
      throw new VerdictVerificationError('invalid_signature', `the ES256 signature does not verify with key ${kid}`, { kid, cause: err });
    throw new VerdictVerificationError('malformed', `the JWS or key ${kid} could not be used: ${(err as Error).message}`, {
      kid,
      cause: err,
    });
  }
  const claims = decodeClaims(payload, kid);

  // kid is <tenant_id>:<epoch> (docs/verdicts.md "Signing keys"): a key of another tenant cannot vouch for this one.
  if (!kid.startsWith(`${claims.tenant_id}:`))
    throw new VerdictVerificationError('tenant_mismatch', `kid ${kid} does not belong to tenant ${claims.tenant_id}`, { kid, claims });
  if (opts.tenantId && claims.tenant_id !== opts.tenantId) {
    throw new VerdictVerificationError('tenant_mismatch', `the verdict belongs to tenant ${claims.tenant_id}, not ${opts.tenantId}`, {
      kid,
      claims,
    });
  }

  // iat is requested_at rounded down to the second, not_before has milliseconds; see notBeforeToleranceSeconds.
  const iatMs = claims.iat * 1000;
  const notBefore = parseIsoInstant(key.not_before);
  const notAfter = key.not_after === null ? Infinity : parseIsoInstant(key.not_after);
  if (notBefore === null || notAfter === null)
    throw new VerdictVerificationError('malformed', `key ${kid} has an unreadable validity window`, { kid, claims });
  const earliest = Math.floor(notBefore / 1000) * 1000 - (opts.notBeforeToleranceSeconds ?? 5) * 1000;
  if (iatMs < earliest || iatMs >= notAfter) {
    throw new VerdictVerificationError(
      'key_not_valid_at_iat',
      `issued at ${new Date(iatMs).toISOString()}, outside key ${kid}'s window [${key.not_before}, ${key.not_after ?? '∞'})`,
      { kid, claims },
    );
  }
  // No tenant's verdicts live longer than the longest verdict_ttl_seconds: a longer life is none the gateway signed,
  // and would let whoever held a retired key make a verdict that lasts (iat is theirs to choose).
  if (claims.exp <= claims.iat || claims.exp - claims.iat > MAX_VERDICT_TTL_SECONDS) {
    throw new VerdictVerificationError(
      'malformed',
      `exp is ${claims.exp - claims.iat} s after iat: a verdict lives 1 to ${MAX_VERDICT_TTL_SECONDS} s (verdict_ttl_seconds)`,
      { kid, claims },
    );
  }
  if (opts.refuseRetiredKeys && key.not_after !== null) {
    throw new VerdictVerificationError('key_retired', `key ${kid} was retired at ${key.not_after}; ask for a new verdict`, { kid, claims });
  }

  const now = opts.now === undefined ? Date.now() : typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const expired = now >= (claims.exp + (opts.clockToleranceSeconds ?? 0)) * 1000;
  if (expired && !opts.allowExpired) {
    throw new VerdictVerificationError('expired', `the verdict expired at ${new Date(claims.exp * 1000).toISOString()}`, { kid, claims });
  }
  return { claims, kid, key, issuedAt: new Date(iatMs), expiresAt: new Date(claims.exp * 1000), expired };
}

/** The claims of a compact JWS without verifying anything (for display and error messages only). */
export function decodeVerdictUnverified(jws: string): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const parts = typeof jws === 'string' ? jws.trim().split('.') : [];
  if (parts.length !== 3) return undefined;
  try {
    const decode = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
    return { header: decode(parts[0]), claims: decode(parts[1]) };
  } catch {
    return undefined;
  }
}
