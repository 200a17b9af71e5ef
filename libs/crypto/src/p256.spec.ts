import { createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { base64UrlToBytes } from './encoding';
import {
  generateP256KeyPair,
  p256PublicKeyFromJwk,
  p256PublicKeyFromPrivateKey,
  p256PublicKeyToJwk,
  p256PublicKeyToPem,
  p256SignHex,
  p256VerifyHex,
} from './p256';
import { catchCryptoError } from './test-helpers';

const ITERATIONS = 50;
// The webhook signing input of docs/verdicts.md "Signing keys": `<timestamp>.<raw body>`.
const webhookInput = (i: number) => `${1767225600 + i}.{"event":"approval.requested","n":${i}}`;

/** A node:crypto P-256 key pair with its public key as uncompressed SEC1 bytes. */
function nodeKeyPair() {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const raw = new Uint8Array(65);
  raw[0] = 0x04;
  raw.set(base64UrlToBytes(jwk.x!), 1);
  raw.set(base64UrlToBytes(jwk.y!), 33);
  return { ...pair, raw, jwk };
}

describe(p256SignHex.name, () => {
  const sut = p256SignHex;

  it(`makes 128-hex-digit r||s signatures node:crypto verifies as ECDSA-SHA256 (${ITERATIONS} keys)`, () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { privateKey, publicKey } = generateP256KeyPair();
      const signature = sut(webhookInput(i), privateKey);

      expect(signature).toMatch(/^[0-9a-f]{128}$/);
      const key = createPublicKey(p256PublicKeyToPem(publicKey));
      expect(nodeVerify('sha256', Buffer.from(webhookInput(i)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'hex'))).toBe(
        true,
      );
    }
  });

  it('is deterministic (RFC 6979)', () => {
    const { privateKey } = generateP256KeyPair();
    expect(sut('same', privateKey)).toBe(sut(new TextEncoder().encode('same'), privateKey));
  });

  it('rejects a private key that is not a valid scalar with invalid_key', () => {
    expect(catchCryptoError(() => sut('x', new Uint8Array(32))).code).toBe('invalid_key');
    expect(catchCryptoError(() => sut('x', new Uint8Array(31).fill(1))).code).toBe('invalid_key');
  });
});

describe(p256VerifyHex.name, () => {
  const sut = p256VerifyHex;
  const { privateKey, publicKey } = generateP256KeyPair();
  const signature = p256SignHex('payload', privateKey);

  it(`accepts node:crypto signatures, high-S ones included (${ITERATIONS} keys)`, () => {
    let highS = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const pair = nodeKeyPair();
      const msg = Buffer.from(webhookInput(i));
      const sig = nodeSign('sha256', msg, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });

      expect(sut(sig.toString('hex'), msg, pair.raw)).toBe(true);
      // noble's default (lowS: true) refuses these valid signatures; that is the case being covered.
      if (!p256.verify(new Uint8Array(sig), new Uint8Array(msg), pair.raw)) highS++;
    }
    expect(highS).toBeGreaterThan(0);
  });

  it('accepts a compressed public key', () => {
    expect(sut(signature, 'payload', p256.getPublicKey(privateKey, true))).toBe(true);
  });

  it('accepts upper-case hex', () => {
    expect(sut(signature.toUpperCase(), 'payload', publicKey)).toBe(true);
  });

  it('returns false for a signature with one hex digit changed', () => {
    for (const i of [0, 63, 64, 127]) {
      const changed = signature.slice(0, i) + (signature[i] === '0' ? '1' : '0') + signature.slice(i + 1);
      expect(sut(changed, 'payload', publicKey)).toBe(false);
    }
  });

  it('returns false for a changed message', () => {
    expect(sut(signature, 'payloaD', publicKey)).toBe(false);
  });

  it('returns false under another key', () => {
    expect(sut(signature, 'payload', generateP256KeyPair().publicKey)).toBe(false);
  });

  it.each([
    ['too short', 'ab'.repeat(63)],
    ['longer than 64 bytes', 'ab'.repeat(65)],
    ['not hex', 'zz'.repeat(64)],
    ['all zero (r = s = 0)', '0'.repeat(128)],
  ])('returns false for a signature that is %s', (_label, sig) => {
    expect(sut(sig, 'payload', publicKey)).toBe(false);
  });

  it('rejects a public key that is not a P-256 point with invalid_key', () => {
    const offCurve = Uint8Array.from(publicKey);
    offCurve[64] = offCurve[64]! ^ 1;
    expect(catchCryptoError(() => sut(signature, 'payload', offCurve)).code).toBe('invalid_key');
    expect(catchCryptoError(() => sut(signature, 'payload', new Uint8Array(64))).code).toBe('invalid_key');
  });
});

describe(p256PublicKeyToJwk.name, () => {
  it('writes the JWK node:crypto exports for the same key', () => {
    const pair = nodeKeyPair();
    expect(p256PublicKeyToJwk(pair.raw)).toEqual(pair.jwk);
  });

  it('round-trips through p256PublicKeyFromJwk', () => {
    const { publicKey } = generateP256KeyPair();
    expect(p256PublicKeyFromJwk(p256PublicKeyToJwk(publicKey))).toEqual(publicKey);
  });

  it('rejects a JWK of another curve with invalid_key', () => {
    expect(catchCryptoError(() => p256PublicKeyFromJwk({ kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' })).code).toBe('invalid_key');
  });
});

describe(p256PublicKeyToPem.name, () => {
  it('writes an SPKI PEM that node:crypto reads as the same key', () => {
    const pair = nodeKeyPair();
    const sut = p256PublicKeyToPem(pair.raw);

    expect(sut).toBe(pair.publicKey.export({ type: 'spki', format: 'pem' }));
  });
});

describe(p256PublicKeyFromPrivateKey.name, () => {
  it('derives the uncompressed public key of a pair', () => {
    const { privateKey, publicKey } = generateP256KeyPair();
    expect(p256PublicKeyFromPrivateKey(privateKey)).toEqual(publicKey);
    expect(publicKey[0]).toBe(0x04);
    expect(publicKey).toHaveLength(65);
  });

  it('matches node:crypto for an imported private scalar', () => {
    const pair = nodeKeyPair();
    const d = base64UrlToBytes(pair.privateKey.export({ format: 'jwk' }).d!);
    expect(p256PublicKeyFromPrivateKey(d)).toEqual(pair.raw);
  });
});
