import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { commit, isCommitment, keyDigest, newKey, subjectDigest } from './commitment';

/** HMAC-SHA256 by another implementation (@noble/hashes) over a canonical JSON text written by hand. */
const nobleHmac = (key: Uint8Array, text: string) => `hmac-sha256:${bytesToHex(hmac(sha256, key, new TextEncoder().encode(text)))}`;

describe(commit.name, () => {
  const key = newKey();

  it('is HMAC-SHA256 of the canonical JSON of [location, value], as @noble/hashes computes it', () => {
    const sut = commit(key, 'parameters.card', { z: 1, a: '4111 1111' });
    expect(sut).toEqual({ $commit: nobleHmac(key, '["parameters.card",{"a":"4111 1111","z":1}]') });
  });

  it('binds the location and the key: the same value elsewhere or under another key commits otherwise', () => {
    const a = commit(key, 'parameters.card', '4111');
    expect(commit(key, 'parameters.card', '4111')).toEqual(a);
    expect(commit(key, 'context.card', '4111')).not.toEqual(a);
    expect(commit(newKey(), 'parameters.card', '4111')).not.toEqual(a);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => commit(Buffer.alloc(16), 'parameters.card', 1)).toThrow(/32 bytes/);
  });
});

describe(subjectDigest.name, () => {
  it('is HMAC-SHA256 under the tenant secret of the subject as canonical JSON', () => {
    const secret = newKey();
    expect(subjectDigest(secret, 'cust-1')).toBe(nobleHmac(secret, '"cust-1"'));
    expect(keyDigest(secret, 'parameters.card', '4111')).toEqual({ $digest: nobleHmac(secret, '["parameters.card","4111"]') });
  });
});

describe(isCommitment.name, () => {
  it('knows a commitment from a value that resembles one', () => {
    expect(isCommitment(commit(newKey(), 'parameters.a', 1))).toBe(true);
    expect(isCommitment({ $commit: 'sha256:00' })).toBe(false);
    expect(isCommitment({ $commit: 'hmac-sha256:00', x: 1 })).toBe(false);
    expect(isCommitment('hmac-sha256:00')).toBe(false);
  });
});
