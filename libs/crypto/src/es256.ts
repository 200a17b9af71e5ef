import { createPrivateKey, generateKeyPairSync, sign as nodeSign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { compactVerify, errors as joseErrors, importJWK, type JWK, type ProtectedHeaderParameters } from 'jose';
import { CryptoError } from './errors';

// Verdicts are compact JWS with ES256 (RFC 7515, RFC 7518 section 3.4) and kid = <tenant_id>:<epoch>
// (docs/verdicts.md "Signing keys", "Signed verdict").

export type { JWK } from 'jose';

export interface Es256KeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface Es256Signer {
  readonly kid: string;
  /** Compact JWS over JSON.stringify(claims) with header {alg:'ES256',kid,typ:'JWT'}. */
  sign(claims: object): string;
}

export interface VerifiedJws {
  header: ProtectedHeaderParameters;
  payload: Record<string, unknown>;
}

/** A fresh P-256 key pair as JWKs (privateJwk carries d; publicJwk only kty, crv, x, y). */
export function generateEs256KeyPair(): Es256KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateJwk: privateKey.export({ format: 'jwk' }) as JWK,
    publicJwk: publicKey.export({ format: 'jwk' }) as JWK,
  };
}

/**
 * The hot-path signer: node:crypto with a KeyObject made once (importing per call is 10-15x
 * slower, and jose's WebCrypto path about half as fast; docs/development.md "Crypto costs"). ECDSA output is
 * requested as r||s (`ieee-p1363`), the JWS form of RFC 7518 section 3.4, not DER. The header
 * segment is encoded once. Interoperability with jose is proven in es256.spec.ts (verifyEs256Jws) and in
 * @arbiter/testing's jose-signer.spec.ts (a JWS jose signs).
 */
export function createEs256Signer(privateJwk: JWK, kid: string): Es256Signer {
  if (!kid) throw new CryptoError('invalid_key', 'kid must be a non-empty string');
  const key = importEs256PrivateKey(privateJwk);
  const headerSegment = Buffer.from(JSON.stringify({ alg: 'ES256', kid, typ: 'JWT' })).toString('base64url');
  return {
    kid,
    sign(claims: object): string {
      const signingInput = `${headerSegment}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      const signature = nodeSign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
      return `${signingInput}.${signature.toString('base64url')}`;
    },
  };
}

/**
 * Verifies an ES256 compact JWS with jose and returns its protected header and JSON payload.
 * Only the signature is checked, never exp/nbf: an expired verdict stays verifiable evidence
 * (docs/verdicts.md "Signed verdict": passing exp only ends the right to act on it). Choosing the
 * key by header kid is the caller's job.
 */
export async function verifyEs256Jws(jws: string, publicJwk: JWK): Promise<VerifiedJws> {
  assertP256Jwk(publicJwk, false);
  const key = await importJwkOrThrow(publicJwk);
  let result: Awaited<ReturnType<typeof compactVerify>>;
  try {
    result = await compactVerify(jws, key, { algorithms: ['ES256'] });
  } catch (err) {
    throw mapJoseError(err);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(result.payload));
  } catch (err) {
    throw new CryptoError('malformed_jws', 'JWS payload is not UTF-8 JSON', { cause: err });
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new CryptoError('malformed_jws', 'JWS payload is not a JSON object');
  }
  return { header: result.protectedHeader, payload: payload as Record<string, unknown> };
}

function importEs256PrivateKey(jwk: JWK): KeyObject {
  assertP256Jwk(jwk, true);
  try {
    return createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch (err) {
    throw new CryptoError('invalid_key', 'private JWK does not import', { cause: err });
  }
}

/** ES256 is P-256 only (RFC 7518 section 3.4); a private key must carry d, a public one must not. */
function assertP256Jwk(jwk: JWK, needPrivate: boolean): void {
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new CryptoError('invalid_key', 'not an EC P-256 JWK');
  }
  if (needPrivate !== (typeof jwk.d === 'string')) {
    throw new CryptoError('invalid_key', needPrivate ? 'JWK has no private part d' : 'expected a public JWK, got a private one');
  }
}

async function importJwkOrThrow(jwk: JWK) {
  try {
    return await importJWK(jwk, 'ES256');
  } catch (err) {
    throw new CryptoError('invalid_key', 'JWK does not import as an ES256 key', { cause: err });
  }
}

function mapJoseError(err: unknown): unknown {
  if (!(err instanceof joseErrors.JOSEError)) return err;
  switch (err.code) {
    case joseErrors.JWSSignatureVerificationFailed.code:
      return new CryptoError('invalid_signature', 'JWS signature does not verify', { cause: err });
    case joseErrors.JOSEAlgNotAllowed.code:
    case joseErrors.JOSENotSupported.code:
      return new CryptoError('unsupported_algorithm', 'JWS alg is not ES256', { cause: err });
    default:
      return new CryptoError('malformed_jws', `malformed JWS: ${err.message}`, { cause: err });
  }
}
