import { createDecipheriv } from 'node:crypto';
import { parseKeyEncryptionKey, generateKeyEncryptionKey } from '@arbiter/crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes } from '@noble/hashes/utils.js';
import { keyId, newSubjectKeys, openValues, rewrapKey, sealValues, unwrapSubjectKeys, wrapSubjectKeys } from './sealed-values';

describe(sealValues.name, () => {
  const keys = newSubjectKeys();
  const values = new Map<string, unknown>([
    ['parameters.card', '4111 1111 1111 1111'],
    ['context.email', { local: 'a', domain: 'b.c' }],
  ]);

  it('round-trips the values under the subject key and the same AAD', () => {
    expect(openValues(keys, sealValues(keys, values, 'cns-1'), 'cns-1')).toEqual(Object.fromEntries(values));
  });

  it('is AES-256-GCM that another decryption (node createDecipheriv with the AAD) opens', () => {
    const [, iv, tag, data] = sealValues(keys, values, 'cns-1').split('.');
    const decipher = createDecipheriv('aes-256-gcm', keys.enc, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from('cns-1'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    expect(plain).toContain('4111 1111 1111 1111');
  });

  it('does not open under another key or for another row', () => {
    const blob = sealValues(keys, values, 'cns-1');
    expect(() => openValues(newSubjectKeys(), blob, 'cns-1')).toThrow();
    expect(() => openValues(keys, blob, 'cns-2')).toThrow();
  });
});

describe(wrapSubjectKeys.name, () => {
  it('wraps both keys under the KEK, opens under it or the previous one, bound to the row', () => {
    const keys = newSubjectKeys();
    const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());
    const other = parseKeyEncryptionKey(generateKeyEncryptionKey());
    const blob = wrapSubjectKeys(keys, kek, 'tnt-1:hmac-sha256:00');
    expect(unwrapSubjectKeys(blob, kek, null, 'tnt-1:hmac-sha256:00')).toEqual(keys);
    expect(unwrapSubjectKeys(blob, other, kek, 'tnt-1:hmac-sha256:00')).toEqual(keys);
    expect(() => unwrapSubjectKeys(blob, kek, null, 'tnt-2:hmac-sha256:00')).toThrow();
  });
});

describe(rewrapKey.name, () => {
  const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const old = parseKeyEncryptionKey(generateKeyEncryptionKey());
  const keys = newSubjectKeys();

  it('moves a key wrapped under the previous KEK under the current one, and leaves a current one alone', () => {
    const underOld = wrapSubjectKeys(keys, old, 'row');
    const moved = rewrapKey(underOld, kek, old, 'row')!;
    expect(unwrapSubjectKeys(moved, kek, null, 'row')).toEqual(keys);
    expect(rewrapKey(moved, kek, old, 'row')).toBeNull();
  });

  it('throws when neither key opens it', () => {
    expect(() => rewrapKey(wrapSubjectKeys(keys, old, 'row'), kek, null, 'row')).toThrow();
  });
});

describe(keyId.name, () => {
  it('is SHA-256 of a label and the encryption key, as @noble/hashes computes it, and differs between key pairs', () => {
    const keys = newSubjectKeys();
    const label = new TextEncoder().encode('arbiter subject key id\0');
    expect(keyId(keys)).toBe(bytesToHex(sha256(concatBytes(label, keys.enc))));
    expect(keyId(keys)).not.toBe(keyId(newSubjectKeys()));
  });
});
