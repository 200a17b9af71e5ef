import { createPublicKey } from 'node:crypto';
import { generateEs256KeyPair } from './es256';
import { ed25519PublicKeyToJwk, generateEd25519KeyPair } from './ed25519';
import {
  currentKey,
  isKeyValidAt,
  isPublished,
  isScheduledRotationDue,
  kidFor,
  nextEmergencyEpoch,
  parseKid,
  planRotation,
  scheduledEpoch,
  signingKeyAt,
  toPublicJwk,
  type KeyRecord,
} from './key-ring';
import { catchCryptoError } from './test-helpers';

const TENANT = 'tnt-01J0ABC';
const at = (iso: string) => new Date(iso);
const { publicJwk, privateJwk } = generateEs256KeyPair();

function record(epoch: string, notBefore: string, notAfter: string | null, ownerId = TENANT): KeyRecord {
  return {
    kid: `${ownerId}:${epoch}`,
    ownerId,
    epoch,
    notBefore: at(notBefore),
    notAfter: notAfter === null ? null : at(notAfter),
    publicJwk,
    encryptedPrivateKey: 'v1.x.y.z',
    createdAt: at(notBefore),
  };
}

describe(kidFor.name, () => {
  it('joins owner and epoch with a colon', () => {
    expect(kidFor(TENANT, '2026')).toBe('tnt-01J0ABC:2026');
    expect(kidFor('ledger', '2026.2')).toBe('ledger:2026.2');
  });

  it.each([
    ['an empty owner', '', '2026'],
    ['an owner with a colon', 'a:b', '2026'],
    ['an epoch that is not a year', TENANT, '26'],
    ['a zero suffix', TENANT, '2026.0'],
    ['a suffix with a leading zero', TENANT, '2026.01'],
  ])('rejects %s with invalid_kid', (_label, owner, epoch) => {
    expect(catchCryptoError(() => kidFor(owner, epoch)).code).toBe('invalid_kid');
  });
});

describe(parseKid.name, () => {
  it('splits a kid into owner and epoch', () => {
    expect(parseKid('tnt-01J0ABC:2026.3')).toEqual({ ownerId: 'tnt-01J0ABC', epoch: '2026.3' });
  });

  it.each(['', 'tnt-1', ':2026', 'tnt-1:', 'tnt-1:2026:1', 'tnt-1:2026.x'])('rejects %p with invalid_kid', (kid) => {
    expect(catchCryptoError(() => parseKid(kid)).code).toBe('invalid_kid');
  });
});

describe(scheduledEpoch.name, () => {
  it('is the UTC year', () => {
    expect(scheduledEpoch(at('2026-07-01T00:00:00Z'))).toBe('2026');
    // 23:30 on 31 Dec in UTC-1 is already the next year in UTC.
    expect(scheduledEpoch(at('2026-12-31T23:30:00-01:00'))).toBe('2027');
  });
});

describe(nextEmergencyEpoch.name, () => {
  const now = at('2026-05-05T00:00:00Z');

  it.each<[string[], string]>([
    [[], '2026.1'],
    [['2025', '2026'], '2026.1'],
    [['2026', '2026.1'], '2026.2'],
    [['2026', '2026.1', '2026.3'], '2026.4'],
    [['2025', '2025.7'], '2026.1'],
    [['2026.9', '2026.10'], '2026.11'],
  ])('after %p is %s', (existing, expected) => {
    expect(nextEmergencyEpoch(existing, now)).toBe(expected);
  });
});

describe(isKeyValidAt.name, () => {
  const sut = isKeyValidAt;
  const key = record('2026', '2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z');

  it('is valid from notBefore inclusive to notAfter exclusive', () => {
    expect(sut(key, at('2025-12-31T23:59:59.999Z'))).toBe(false);
    expect(sut(key, at('2026-01-01T00:00:00Z'))).toBe(true);
    expect(sut(key, at('2026-05-31T23:59:59.999Z'))).toBe(true);
    expect(sut(key, at('2026-06-01T00:00:00Z'))).toBe(false);
  });

  it('has no end when notAfter is null', () => {
    expect(sut(record('2026', '2026-01-01T00:00:00Z', null), at('2999-01-01T00:00:00Z'))).toBe(true);
  });
});

describe(currentKey.name, () => {
  const sut = currentKey;

  it('is null for an empty ring', () => {
    expect(sut([], at('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('picks the open key, not the retired ones', () => {
    const ring = [record('2025', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'), record('2026', '2026-01-01T00:00:00Z', null)];
    expect(sut(ring, at('2026-03-01T00:00:00Z'))?.kid).toBe(`${TENANT}:2026`);
    expect(sut(ring, at('2025-03-01T00:00:00Z'))?.kid).toBe(`${TENANT}:2025`);
  });

  it('picks the newest notBefore when several are valid', () => {
    const ring = [record('2026.1', '2026-04-01T00:00:00Z', null), record('2026', '2026-01-01T00:00:00Z', null)];
    expect(sut(ring, at('2026-05-01T00:00:00Z'))?.epoch).toBe('2026.1');
  });

  it('ignores a key whose notBefore is still in the future', () => {
    const ring = [record('2026', '2026-01-01T00:00:00Z', null), record('2027', '2027-01-01T00:00:00Z', null)];
    expect(sut(ring, at('2026-12-31T00:00:00Z'))?.epoch).toBe('2026');
  });

  it('is null when every key is retired', () => {
    expect(sut([record('2026', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')], at('2026-03-01T00:00:00Z'))).toBeNull();
  });
});

describe(signingKeyAt.name, () => {
  it('answers the key valid at the instant', () => {
    const old = record('2025', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
    const current = record('2026', '2026-01-01T00:00:00Z', null);
    expect(signingKeyAt([old, current], at('2025-06-01T00:00:00Z'))?.kid).toBe(old.kid);
    expect(signingKeyAt([old, current], at('2026-06-01T00:00:00Z'))?.kid).toBe(current.kid);
  });

  it('falls back to the newest open-ended key when the clock is behind its not_before', () => {
    const made = record('2026', '2026-06-01T00:00:10Z', null);
    expect(signingKeyAt([made], at('2026-06-01T00:00:00Z'))?.kid).toBe(made.kid);
  });

  it('answers null when every key is retired', () => {
    expect(signingKeyAt([record('2026', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')], at('2026-03-01T00:00:00Z'))).toBeNull();
    expect(signingKeyAt([], at('2026-03-01T00:00:00Z'))).toBeNull();
  });
});

describe(isScheduledRotationDue.name, () => {
  it('is due when the key belongs to an earlier year, emergency suffix or not', () => {
    expect(isScheduledRotationDue({ epoch: '2026' }, at('2027-01-01T00:00:00Z'))).toBe(true);
    expect(isScheduledRotationDue({ epoch: '2026.3' }, at('2027-01-01T00:00:00Z'))).toBe(true);
    expect(isScheduledRotationDue({ epoch: '2027' }, at('2027-12-31T23:59:59Z'))).toBe(false);
    expect(isScheduledRotationDue({ epoch: '2027.1' }, at('2027-06-01T00:00:00Z'))).toBe(false);
  });
});

describe(isPublished.name, () => {
  const retired = record('2026', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');

  it('publishes open keys, and retired keys forever by default', () => {
    expect(isPublished(record('2026', '2026-01-01T00:00:00Z', null), at('2099-01-01T00:00:00Z'))).toBe(true);
    expect(isPublished(retired, at('2099-01-01T00:00:00Z'))).toBe(true);
  });

  it('drops a retired key once its verification window after not_after is over', () => {
    const day = 86_400_000;
    expect(isPublished(retired, at('2026-02-01T23:59:59Z'), day)).toBe(true);
    expect(isPublished(retired, at('2026-02-02T00:00:00Z'), day)).toBe(false);
  });
});

describe(planRotation.name, () => {
  const sut = planRotation;

  it("plans the first key of an owner as this year's scheduled epoch with nothing to retire", () => {
    const now = at('2026-01-01T00:00:00Z');
    expect(sut([], { ownerId: TENANT, now, mode: 'scheduled' })).toEqual({
      mode: 'scheduled',
      ownerId: TENANT,
      newEpoch: '2026',
      newKid: `${TENANT}:2026`,
      notBefore: now,
      retire: [],
    });
  });

  it('on a scheduled rotation starts the year key now and closes the old key at now', () => {
    const now = at('2027-01-01T00:00:05Z');
    const ring = [record('2025', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'), record('2026', '2026-01-01T00:00:00Z', null)];
    const plan = sut(ring, { ownerId: TENANT, now, mode: 'scheduled' });

    expect(plan.newKid).toBe(`${TENANT}:2027`);
    expect(plan.notBefore).toEqual(now);
    expect(plan.retire).toEqual([{ kid: `${TENANT}:2026`, notAfter: now }]);
  });

  it('on an emergency rotation adds the next suffix and closes the current key at now', () => {
    const now = at('2026-08-08T08:08:08Z');
    const ring = [record('2026', '2026-01-01T00:00:00Z', null)];
    const first = sut(ring, { ownerId: TENANT, now, mode: 'emergency' });
    expect(first.newEpoch).toBe('2026.1');
    expect(first.retire).toEqual([{ kid: `${TENANT}:2026`, notAfter: now }]);

    const later = at('2026-09-09T00:00:00Z');
    const ring2 = [record('2026', '2026-01-01T00:00:00Z', now.toISOString()), record('2026.1', now.toISOString(), null)];
    const second = sut(ring2, { ownerId: TENANT, now: later, mode: 'emergency' });
    expect(second.newEpoch).toBe('2026.2');
    expect(second.retire).toEqual([{ kid: `${TENANT}:2026.1`, notAfter: later }]);
  });

  it('leaves after a rotation exactly one key current: the new one', () => {
    const now = at('2026-08-08T00:00:00Z');
    const ring = [record('2026', '2026-01-01T00:00:00Z', null)];
    const plan = sut(ring, { ownerId: TENANT, now, mode: 'emergency' });
    const after: KeyRecord[] = [
      ...ring.map((r) => ({ ...r, notAfter: plan.retire.find((x) => x.kid === r.kid)?.notAfter ?? r.notAfter })),
      { ...record(plan.newEpoch, now.toISOString(), null), kid: plan.newKid },
    ];
    expect(currentKey(after, now)?.kid).toBe(plan.newKid);
    expect(after.filter((r) => isKeyValidAt(r, now))).toHaveLength(1);
  });

  it('refuses a scheduled rotation with rotation_not_due when the current key is already this year', () => {
    const ring = [record('2026', '2026-01-01T00:00:00Z', null)];
    const err = catchCryptoError(() => sut(ring, { ownerId: TENANT, now: at('2026-06-01T00:00:00Z'), mode: 'scheduled' }));
    expect(err.code).toBe('rotation_not_due');
  });

  it('refuses a scheduled rotation with rotation_not_due after an emergency key of this year', () => {
    const ring = [record('2026', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z'), record('2026.1', '2026-03-01T00:00:00Z', null)];
    const err = catchCryptoError(() => sut(ring, { ownerId: TENANT, now: at('2026-06-01T00:00:00Z'), mode: 'scheduled' }));
    expect(err.code).toBe('rotation_not_due');
  });

  it("only looks at the given owner's keys", () => {
    const now = at('2026-02-01T00:00:00Z');
    const ring = [record('2026', '2026-01-01T00:00:00Z', null, 'tnt-other'), record('2025', '2025-01-01T00:00:00Z', null)];
    const plan = sut(ring, { ownerId: TENANT, now, mode: 'scheduled' });
    expect(plan.newKid).toBe(`${TENANT}:2026`);
    expect(plan.retire).toEqual([{ kid: `${TENANT}:2025`, notAfter: now }]);
  });
});

describe(toPublicJwk.name, () => {
  const sut = toPublicJwk;

  it('publishes an EC key with kid, alg ES256, use sig and the validity window (docs/verdicts.md "Verification key")', () => {
    const key = record('2025', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
    expect(sut(key)).toEqual({
      kid: `${TENANT}:2025`,
      kty: 'EC',
      crv: 'P-256',
      x: publicJwk.x,
      y: publicJwk.y,
      alg: 'ES256',
      use: 'sig',
      not_before: '2025-01-01T00:00:00.000Z',
      not_after: '2026-01-01T00:00:00.000Z',
    });
  });

  it('writes not_after null for the current key', () => {
    expect(sut(record('2026', '2026-01-01T00:00:00Z', null)).not_after).toBeNull();
  });

  it('never publishes a private member, even if the record holds a private JWK', () => {
    const published = sut({ ...record('2026', '2026-01-01T00:00:00Z', null), publicJwk: privateJwk });
    expect(published).not.toHaveProperty('d');
    expect(createPublicKey({ key: published as never, format: 'jwk' }).asymmetricKeyType).toBe('ec');
  });

  it('publishes an Ed25519 key as an OKP JWK with alg EdDSA (RFC 8037)', () => {
    const jwk = ed25519PublicKeyToJwk(generateEd25519KeyPair().publicKey);
    const published = sut({ ...record('2026', '2026-01-01T00:00:00Z', null, 'ledger'), publicJwk: jwk });
    expect(published).toMatchObject({ kid: 'ledger:2026', kty: 'OKP', crv: 'Ed25519', x: jwk.x, alg: 'EdDSA' });
    expect(published).not.toHaveProperty('y');
  });

  it('rejects a key type it cannot publish with invalid_key', () => {
    const rsa = { ...record('2026', '2026-01-01T00:00:00Z', null), publicJwk: { kty: 'RSA', n: 'x', e: 'AQAB' } };
    expect(catchCryptoError(() => sut(rsa)).code).toBe('invalid_key');
  });
});
