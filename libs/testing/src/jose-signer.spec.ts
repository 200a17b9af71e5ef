import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { createEs256Signer, generateEs256KeyPair, verifyEs256Jws } from '@arbiter/crypto';
import { signEs256JwsWithJose } from './jose-signer';

const KID = 'tnt-0001:2026';

/** node:crypto verification of a compact JWS on its raw signing input (RFC 7515 section 5.2). */
function nodeVerifiesJws(jws: string, publicJwk: object): boolean {
  const [header, payload, signature] = jws.split('.');
  const key = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
  return verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
}

describe(signEs256JwsWithJose.name, () => {
  const keys = generateEs256KeyPair();

  it('makes JWSs that node:crypto and verifyEs256Jws verify', async () => {
    for (let i = 0; i < 20; i++) {
      const jws = await signEs256JwsWithJose({ i }, keys.privateJwk, KID);
      expect(nodeVerifiesJws(jws, keys.publicJwk)).toBe(true);
      expect((await verifyEs256Jws(jws, keys.publicJwk)).payload).toEqual({ i });
    }
  });

  it('writes the same header as the product signer', async () => {
    const jws = await signEs256JwsWithJose({ i: 1 }, keys.privateJwk, KID);
    expect(jws.split('.')[0]).toBe(createEs256Signer(keys.privateJwk, KID).sign({ i: 1 }).split('.')[0]);
  });

  it('refuses a public key', async () => {
    await expect(signEs256JwsWithJose({}, keys.publicJwk, KID)).rejects.toThrow('not a private EC P-256 JWK');
  });
});
