import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { isDigest, sha256Digest, sha256Hex, ZERO_DIGEST } from './digest';

const nodeSha256 = (s: string): string => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

describe(sha256Digest.name, () => {
  const sut = sha256Digest;

  it('hashes the UTF-8 bytes of the canonical JSON (hand-written canonical form)', () => {
    const value = { b: [true, null, 'x'], a: 1, c: { é: '€' } };
    const canonical = '{"a":1,"b":[true,null,"x"],"c":{"é":"€"}}';

    expect(sut(value)).toBe(`sha256:${nodeSha256(canonical)}`);
  });

  it('gives the same digest for objects that differ only in member order', () => {
    expect(sut({ x: 1, y: [1, 2] })).toBe(sut({ y: [1, 2], x: 1 }));
  });

  it('matches an independent SHA-256 implementation (@noble/hashes)', () => {
    const canonical = '{"k":"\u00fc\ud83d\ude00"}';
    expect(sut({ k: '\u00fc\ud83d\ude00' })).toBe(`sha256:${bytesToHex(sha256(new TextEncoder().encode(canonical)))}`);
  });
});

describe(sha256Hex.name, () => {
  const sut = sha256Hex;

  it('hashes the FIPS 180-2 "abc" vector', () => {
    expect(sut('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes strings as UTF-8 and bytes as given', () => {
    expect(sut('€')).toBe(sut(new Uint8Array([0xe2, 0x82, 0xac])));
  });
});

describe(isDigest.name, () => {
  const sut = isDigest;

  it.each([
    [ZERO_DIGEST, true],
    [`sha256:${'ab'.repeat(32)}`, true],
    [`sha256:${'AB'.repeat(32)}`, false],
    [`sha256:${'a'.repeat(63)}`, false],
    [`sha512:${'a'.repeat(64)}`, false],
    ['a'.repeat(64), false],
    [42, false],
  ])('classifies %p as %p', (value, expected) => {
    expect(sut(value)).toBe(expected);
  });

  it('accepts ZERO_DIGEST, which is sha256: and 64 zeros', () => {
    expect(ZERO_DIGEST).toBe('sha256:0000000000000000000000000000000000000000000000000000000000000000');
  });
});
