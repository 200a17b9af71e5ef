import { createPublicKey, sign as nodeSign, verify as nodeVerify, type JsonWebKey } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { createEs256Signer, generateEs256KeyPair, verifyEs256Jws } from './es256';
import { catchCryptoError, catchCryptoErrorAsync, tamperSegment } from './test-helpers';

const KID = 'tnt-0001:2026';

/** node:crypto verification of a compact JWS on its raw signing input (RFC 7515 section 5.2). */
function nodeVerifiesJws(jws: string, publicJwk: object): boolean {
  const [header, payload, signature] = jws.split('.');
  const key = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
  return nodeVerify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
}

/** A JWS over arbitrary header and payload text, signed by node:crypto (for malformed-content cases). */
function nodeSignedJws(privateJwk: object, header: object, payloadText: string): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payloadText).toString('base64url')}`;
  const key = { key: privateJwk as JsonWebKey, format: 'jwk' as const, dsaEncoding: 'ieee-p1363' as const };
  return `${input}.${nodeSign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

describe(generateEs256KeyPair.name, () => {
  it('returns a P-256 private JWK with d and a public JWK without it', () => {
    const { privateJwk, publicJwk } = generateEs256KeyPair();

    expect(privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: publicJwk.x, y: publicJwk.y });
    expect(typeof privateJwk.d).toBe('string');
    expect(Object.keys(publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
  });
});

describe(createEs256Signer.name, () => {
  const keys = generateEs256KeyPair();
  const sut = createEs256Signer(keys.privateJwk, KID);
  const claims = { iss: 'arbiter', sub: 'agn-1', iat: 1767225600, exp: 1767225900, verdict: 'allowed', n: [1, 'é'] };

  it('writes the header {alg: ES256, kid, typ: JWT}', () => {
    expect(decodeProtectedHeader(sut.sign(claims))).toEqual({ alg: 'ES256', kid: KID, typ: 'JWT' });
  });

  it('makes JWSs that jose verifies', async () => {
    const key = await importJWK(keys.publicJwk, 'ES256');
    for (let i = 0; i < 20; i++) {
      const jws = sut.sign({ ...claims, jti: `c-${i}` });
      const { payload } = await compactVerify(jws, key, { algorithms: ['ES256'] });
      expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ ...claims, jti: `c-${i}` });
    }
  });

  it('makes JWSs that node:crypto verifies on the raw signing input', () => {
    for (let i = 0; i < 20; i++) {
      expect(nodeVerifiesJws(sut.sign({ ...claims, jti: `c-${i}` }), keys.publicJwk)).toBe(true);
    }
  });

  it('makes JWSs that jose jwtVerify accepts as a JWT', async () => {
    const key = await importJWK(keys.publicJwk, 'ES256');
    const { payload } = await jwtVerify(sut.sign(claims), key, { currentDate: new Date(1767225700 * 1000) });
    expect(payload.sub).toBe('agn-1');
  });

  it('rejects a public JWK with invalid_key', () => {
    expect(catchCryptoError(() => createEs256Signer(keys.publicJwk, KID)).code).toBe('invalid_key');
  });

  it('rejects a non-P-256 key with invalid_key', () => {
    expect(catchCryptoError(() => createEs256Signer({ kty: 'OKP', crv: 'Ed25519', x: 'a', d: 'b' }, KID)).code).toBe('invalid_key');
  });

  it('rejects an empty kid with invalid_key', () => {
    expect(catchCryptoError(() => createEs256Signer(keys.privateJwk, '')).code).toBe('invalid_key');
  });
});

describe(verifyEs256Jws.name, () => {
  const keys = generateEs256KeyPair();
  const other = generateEs256KeyPair();
  const signer = createEs256Signer(keys.privateJwk, KID);
  const sut = verifyEs256Jws;

  it('returns header and payload of a valid JWS', async () => {
    await expect(sut(signer.sign({ a: 1 }), keys.publicJwk)).resolves.toEqual({
      header: { alg: 'ES256', kid: KID, typ: 'JWT' },
      payload: { a: 1 },
    });
  });

  it('verifies a JWS made by node:crypto directly', async () => {
    const jws = nodeSignedJws(keys.privateJwk, { alg: 'ES256', kid: KID }, '{"x":true}');
    await expect(sut(jws, keys.publicJwk)).resolves.toMatchObject({ payload: { x: true } });
  });

  it('does not enforce exp: an expired verdict stays verifiable', async () => {
    await expect(sut(signer.sign({ exp: 1 }), keys.publicJwk)).resolves.toMatchObject({ payload: { exp: 1 } });
  });

  it('accepts a published JWKS entry with kid, alg, use and validity members', async () => {
    const published = { ...keys.publicJwk, kid: KID, alg: 'ES256', use: 'sig', not_before: '2026-01-01T00:00:00.000Z' };
    await expect(sut(signer.sign({ a: 1 }), published)).resolves.toMatchObject({ payload: { a: 1 } });
  });

  it.each([
    ['signature', 2],
    ['payload', 1],
    ['header', 0],
  ])('rejects a JWS with a changed %s', async (_part, segment) => {
    const jws = tamperSegment(signer.sign({ verdict: 'allowed', pad: 'x'.repeat(40) }), segment);
    const err = await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk));
    expect(['invalid_signature', 'malformed_jws']).toContain(err.code);
    if (segment !== 0) expect(err.code).toBe('invalid_signature');
  });

  it('rejects a JWS signed by another key with invalid_signature', async () => {
    const err = await catchCryptoErrorAsync(() => sut(signer.sign({ a: 1 }), other.publicJwk));
    expect(err.code).toBe('invalid_signature');
  });

  it.each(['', 'abc', 'a.b', 'a.b.c.d', '...'])('rejects %p with malformed_jws', async (jws) => {
    expect((await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk))).code).toBe('malformed_jws');
  });

  it('rejects a validly signed non-JSON payload with malformed_jws', async () => {
    const jws = nodeSignedJws(keys.privateJwk, { alg: 'ES256' }, 'not json');
    expect((await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk))).code).toBe('malformed_jws');
  });

  it('rejects a validly signed array payload with malformed_jws', async () => {
    const jws = nodeSignedJws(keys.privateJwk, { alg: 'ES256' }, '[1]');
    expect((await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk))).code).toBe('malformed_jws');
  });

  it('rejects a header alg other than ES256 with unsupported_algorithm', async () => {
    const jws = nodeSignedJws(keys.privateJwk, { alg: 'ES384' }, '{}');
    expect((await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk))).code).toBe('unsupported_algorithm');
  });

  it('rejects alg none with unsupported_algorithm', async () => {
    const jws = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
    expect((await catchCryptoErrorAsync(() => sut(jws, keys.publicJwk))).code).toBe('unsupported_algorithm');
  });

  it('rejects a private JWK as verification key with invalid_key', async () => {
    expect((await catchCryptoErrorAsync(() => sut(signer.sign({}), keys.privateJwk))).code).toBe('invalid_key');
  });

  it('rejects a JWK whose point is not on the curve with invalid_key', async () => {
    const bad = { ...keys.publicJwk, y: keys.publicJwk.x };
    expect((await catchCryptoErrorAsync(() => sut(signer.sign({}), bad))).code).toBe('invalid_key');
  });
});
