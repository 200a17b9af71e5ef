// A second ES256 signer, made with jose's CompactSign: tests sign with it to show that what
// @arbiter/crypto's node:crypto signer makes and verifies is the same JWS another implementation makes
// (docs/development.md "Test conventions": a signature is checked by an implementation other than
// the one that made it). Test-only: product code signs with createEs256Signer.
import { CompactSign, importJWK, type JWK } from 'jose';

/** A compact JWS over JSON.stringify(claims) with header {alg:'ES256',kid,typ:'JWT'}, signed by jose. */
export async function signEs256JwsWithJose(claims: object, privateJwk: JWK, kid: string): Promise<string> {
  if (privateJwk?.kty !== 'EC' || privateJwk.crv !== 'P-256' || typeof privateJwk.d !== 'string')
    throw new Error('not a private EC P-256 JWK');
  const key = await importJWK(privateJwk, 'ES256');
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(key);
}
