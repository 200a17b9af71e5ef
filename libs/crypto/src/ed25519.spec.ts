import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { bytesToBase64Url, hexToBytes } from './encoding';
import {
  ed25519FromBase64,
  ed25519PublicKeyFromPrivateKey,
  ed25519PublicKeyToJwk,
  ed25519PublicKeyToPem,
  ed25519Sign,
  ed25519ToBase64,
  ed25519Verify,
  generateEd25519KeyPair,
} from './ed25519';
import { catchCryptoError, flipBit } from './test-helpers';

/** node:crypto KeyObjects for a raw seed/public key pair, built through an RFC 8037 JWK. */
function nodeKeys(privateKey: Uint8Array, publicKey: Uint8Array) {
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(publicKey), d: bytesToBase64Url(privateKey) };
  return {
    privateKey: createPrivateKey({ key: jwk, format: 'jwk' }),
    publicKey: createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' }),
  };
}

const message = new TextEncoder().encode('{"bundle_id":"bnd-1","facts":["sha256:00"]}');

describe(ed25519Sign.name, () => {
  const sut = ed25519Sign;

  it('matches RFC 8032 section 7.1 TEST 1 (empty message)', () => {
    const secret = hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(ed25519PublicKeyFromPrivateKey(secret)).toEqual(hexToBytes('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'));
    expect(sut(new Uint8Array(0), secret)).toEqual(
      hexToBytes(
        'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
      ),
    );
  });

  it('makes signatures node:crypto verifies', () => {
    for (let i = 0; i < 20; i++) {
      const { privateKey, publicKey } = generateEd25519KeyPair();
      const msg = new TextEncoder().encode(`message ${i}`);
      const signature = sut(msg, privateKey);
      expect(nodeVerify(null, msg, nodeKeys(privateKey, publicKey).publicKey, signature)).toBe(true);
    }
  });

  it('makes the same bytes as node:crypto for the same key and message (Ed25519 is deterministic)', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const fromNode = nodeSign(null, message, nodeKeys(privateKey, publicKey).privateKey);
    expect(sut(message, privateKey)).toEqual(new Uint8Array(fromNode));
  });

  it('signs a string as its UTF-8 bytes', () => {
    const { privateKey } = generateEd25519KeyPair();
    expect(sut('Grüße', privateKey)).toEqual(sut(new TextEncoder().encode('Grüße'), privateKey));
  });

  it('rejects a private key that is not 32 bytes with invalid_key', () => {
    expect(catchCryptoError(() => sut(message, new Uint8Array(64))).code).toBe('invalid_key');
  });
});

describe(ed25519Verify.name, () => {
  const sut = ed25519Verify;
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const signature = ed25519Sign(message, privateKey);

  it('accepts signatures made by node:crypto', () => {
    for (let i = 0; i < 20; i++) {
      const pair = generateKeyPairSync('ed25519');
      const raw = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x!, 'base64url');
      const msg = Buffer.from(`node message ${i}`);
      expect(sut(new Uint8Array(nodeSign(null, msg, pair.privateKey)), msg, new Uint8Array(raw))).toBe(true);
    }
  });

  it('returns false for a signature with one bit flipped', () => {
    for (const i of [0, 31, 32, 63]) expect(sut(flipBit(signature, i), message, publicKey)).toBe(false);
  });

  it('returns false for a changed message', () => {
    expect(sut(signature, flipBit(message, 5), publicKey)).toBe(false);
  });

  it('returns false under another public key', () => {
    expect(sut(signature, message, generateEd25519KeyPair().publicKey)).toBe(false);
  });

  it('returns false for a signature of the wrong length', () => {
    expect(sut(signature.subarray(0, 63), message, publicKey)).toBe(false);
  });

  it('returns false for an S that is not reduced mod L (RFC 8032 section 5.1.7)', () => {
    const bad = Uint8Array.from(signature);
    bad.fill(0xff, 32);
    expect(sut(bad, message, publicKey)).toBe(false);
  });

  it('rejects a public key that is not 32 bytes with invalid_key', () => {
    expect(catchCryptoError(() => sut(signature, message, new Uint8Array(33))).code).toBe('invalid_key');
  });
});

describe(ed25519PublicKeyToJwk.name, () => {
  it('writes an RFC 8037 OKP JWK that node:crypto imports to the same key', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const sut = ed25519PublicKeyToJwk(publicKey);

    expect(sut).toEqual({ kty: 'OKP', crv: 'Ed25519', x: bytesToBase64Url(publicKey) });
    const keyObject = createPublicKey({ key: sut, format: 'jwk' });
    expect(nodeVerify(null, message, keyObject, ed25519Sign(message, privateKey))).toBe(true);
  });
});

describe(ed25519PublicKeyToPem.name, () => {
  it('writes an SPKI PEM that node:crypto verifies with', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const sut = ed25519PublicKeyToPem(publicKey);

    expect(sut).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
    expect(nodeVerify(null, message, createPublicKey(sut), ed25519Sign(message, privateKey))).toBe(true);
  });
});

describe(ed25519ToBase64.name, () => {
  it('round-trips keys and signatures through standard base64', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair();
    const signature = ed25519Sign(message, privateKey);

    expect(ed25519ToBase64(signature)).toBe(Buffer.from(signature).toString('base64'));
    expect(ed25519FromBase64(ed25519ToBase64(signature))).toEqual(signature);
    expect(ed25519FromBase64(ed25519ToBase64(publicKey))).toEqual(publicKey);
  });

  it.each(['not base64!', 'AAA', 'AB==', 'AAAA AAAA'])('rejects %p with malformed_encoding', (text) => {
    expect(catchCryptoError(() => ed25519FromBase64(text)).code).toBe('malformed_encoding');
  });
});
