import { randomBytes, webcrypto } from 'node:crypto';
import { base64UrlToBytes } from './encoding';
import { decryptSecret, decryptSecretRotating, encryptSecret, generateKeyEncryptionKey, parseKeyEncryptionKey } from './encryption';
import { catchCryptoError } from './test-helpers';

const BLOB = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/;

/** Replaces part i (1 = iv, 2 = tag, 3 = ciphertext) of a blob with a copy whose first byte is flipped. */
function tamperPart(blob: string, i: number): string {
  const parts = blob.split('.');
  const bytes = Buffer.from(parts[i]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[i] = bytes.toString('base64url');
  return parts.join('.');
}

describe(encryptSecret.name, () => {
  const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const sut = encryptSecret;

  it('writes v1.<12-byte iv>.<16-byte tag>.<ciphertext> in base64url', () => {
    expect(sut('secret', kek)).toMatch(BLOB);
  });

  it('uses a fresh IV every time', () => {
    expect(sut('secret', kek)).not.toBe(sut('secret', kek));
  });

  it('writes standard AES-256-GCM that WebCrypto decrypts (ciphertext || tag, with the AAD)', async () => {
    const plaintext = randomBytes(100);
    const [, iv, tag, ciphertext] = sut(plaintext, kek, 'tnt-1:2026').split('.');
    const key = await webcrypto.subtle.importKey('raw', kek, 'AES-GCM', false, ['decrypt']);
    const decrypted = await webcrypto.subtle.decrypt(
      { name: 'AES-GCM', iv: base64UrlToBytes(iv!), additionalData: Buffer.from('tnt-1:2026'), tagLength: 128 },
      key,
      Buffer.concat([base64UrlToBytes(ciphertext!), base64UrlToBytes(tag!)]),
    );
    expect(Buffer.from(decrypted)).toEqual(plaintext);
  });

  it('rejects a key that is not 32 bytes with invalid_key_encryption_key', () => {
    expect(catchCryptoError(() => sut('x', Buffer.alloc(16))).code).toBe('invalid_key_encryption_key');
  });
});

describe(decryptSecret.name, () => {
  const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const sut = decryptSecret;

  it('round-trips text, bytes and the empty string', () => {
    const bytes = randomBytes(64);
    expect(sut(encryptSecret('{"kty":"EC","d":"é"}', kek), kek).toString('utf8')).toBe('{"kty":"EC","d":"é"}');
    expect(sut(encryptSecret(bytes, kek), kek)).toEqual(bytes);
    expect(sut(encryptSecret('', kek), kek)).toHaveLength(0);
  });

  it('round-trips with the same AAD', () => {
    expect(sut(encryptSecret('k', kek, 'tnt-1:2026'), kek, 'tnt-1:2026').toString()).toBe('k');
  });

  it('fails with decryption_failed under another key', () => {
    const other = parseKeyEncryptionKey(generateKeyEncryptionKey());
    expect(catchCryptoError(() => sut(encryptSecret('k', kek), other)).code).toBe('decryption_failed');
  });

  it.each([
    ['another AAD', 'tnt-1:2026', 'tnt-2:2026'],
    ['a missing AAD', 'tnt-1:2026', undefined],
    ['an unexpected AAD', undefined, 'tnt-1:2026'],
  ])('fails with decryption_failed for %s', (_label, aadIn, aadOut) => {
    expect(catchCryptoError(() => sut(encryptSecret('k', kek, aadIn), kek, aadOut)).code).toBe('decryption_failed');
  });

  it.each([
    ['IV', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ])('fails with decryption_failed when the %s is changed', (_label, part) => {
    const blob = encryptSecret('private key material', kek);
    expect(catchCryptoError(() => sut(tamperPart(blob, part), kek)).code).toBe('decryption_failed');
  });

  it.each([
    ['an empty string', ''],
    ['another version', 'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA'],
    ['too few parts', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA'],
    ['a non-base64url part', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.A+/='],
    ['a short IV', 'v1.AAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA'],
    ['a truncated tag', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAA.AA'],
  ])('fails with malformed_ciphertext for %s', (_label, blob) => {
    expect(catchCryptoError(() => sut(blob, kek)).code).toBe('malformed_ciphertext');
  });
});

describe(decryptSecretRotating.name, () => {
  const current = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const previous = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const other = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const sut = decryptSecretRotating;

  it('opens with the current key first, else with the previous one, and says which', () => {
    expect(sut(encryptSecret('a', current, 'kid'), current, previous, 'kid')).toEqual({ plaintext: Buffer.from('a'), under: 'current' });
    expect(sut(encryptSecret('b', previous, 'kid'), current, previous, 'kid')).toEqual({ plaintext: Buffer.from('b'), under: 'previous' });
  });

  it('fails with decryption_failed when neither key opens it, or there is no previous key', () => {
    expect(catchCryptoError(() => sut(encryptSecret('c', other, 'kid'), current, previous, 'kid')).code).toBe('decryption_failed');
    expect(catchCryptoError(() => sut(encryptSecret('c', previous, 'kid'), current, null, 'kid')).code).toBe('decryption_failed');
    expect(catchCryptoError(() => sut(encryptSecret('c', previous, 'kid'), current, previous, 'other-kid')).code).toBe('decryption_failed');
  });

  it('does not try the previous key on a malformed blob', () => {
    expect(catchCryptoError(() => sut('v1.bad', current, previous)).code).toBe('malformed_ciphertext');
  });
});

describe(parseKeyEncryptionKey.name, () => {
  const sut = parseKeyEncryptionKey;
  const raw = randomBytes(32);

  it.each([
    ['base64', raw.toString('base64')],
    ['unpadded base64', raw.toString('base64').replace(/=$/, '')],
    ['base64url', raw.toString('base64url')],
    ['lower-case hex', raw.toString('hex')],
    ['upper-case hex', raw.toString('hex').toUpperCase()],
    ['base64 with surrounding whitespace', ` ${raw.toString('base64')}\n`],
  ])('accepts %s of 32 bytes', (_label, value) => {
    expect(sut(value)).toEqual(raw);
  });

  it('accepts what generateKeyEncryptionKey makes', () => {
    expect(sut(generateKeyEncryptionKey())).toHaveLength(32);
  });

  it.each([
    ['an empty string', ''],
    ['base64 of 31 bytes', randomBytes(31).toString('base64')],
    ['base64 of 33 bytes', randomBytes(33).toString('base64')],
    ['hex of 31 bytes', randomBytes(31).toString('hex')],
    ['hex of 33 bytes', randomBytes(33).toString('hex')],
    ['base64 with set padding bits', 'A'.repeat(42) + 'B='],
    ['text that is neither', 'correct horse battery staple, 32 chars+'],
  ])('rejects %s with invalid_key_encryption_key', (_label, value) => {
    const err = catchCryptoError(() => sut(value));
    expect(err.code).toBe('invalid_key_encryption_key');
    if (value) expect(err.message).not.toContain(value);
  });
});
