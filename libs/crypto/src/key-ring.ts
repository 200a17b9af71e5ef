import type { JWK } from 'jose';
import { CryptoError } from './errors';

// Epoch key rings (docs/verdicts.md "Signing keys", "Versioning"). Pure functions over key
// records: no storage, no clock (the caller passes `now`), no key material generation. The same
// model serves verdict keys (owner = tenant id) and service keys (owner = e.g. 'ledger').
//
// - kid = <ownerId>:<epoch>. A scheduled epoch is the UTC year ('2026'); an emergency rotation adds
//   a numeric suffix ('2026.1', '2026.2', ...), so kids never repeat.
// - A key is valid on the half-open window [notBefore, notAfter); notAfter null = open-ended.
// - Rotation never deletes: retired keys stay published with not_after set, so a signature of any
//   age stays verifiable (docs/verdicts.md "Versioning": old keys are published forever).

export interface KeyRecord {
  kid: string;
  ownerId: string;
  epoch: string;
  notBefore: Date;
  notAfter: Date | null;
  publicJwk: JWK;
  /** encryptSecret() output; never leaves the owning service. */
  encryptedPrivateKey: string;
  createdAt: Date;
}

export type RotationMode = 'scheduled' | 'emergency';

export interface RotationPlan {
  mode: RotationMode;
  ownerId: string;
  newEpoch: string;
  newKid: string;
  /** The new key's notBefore (= now); its notAfter is null. */
  notBefore: Date;
  /** Keys still open at `now`, to close with notAfter = now (kept published). */
  retire: { kid: string; notAfter: Date }[];
}

/** A key as published in a JWKS (docs/verdicts.md "Verification key"). */
export interface PublishedJwk {
  kid: string;
  kty: string;
  crv: string;
  x: string;
  y?: string;
  alg: 'ES256' | 'EdDSA';
  use: 'sig';
  not_before: string;
  not_after: string | null;
}

const EPOCH = /^(\d{4})(?:\.([1-9]\d*))?$/;

export function kidFor(ownerId: string, epoch: string): string {
  assertOwnerId(ownerId);
  parseEpoch(epoch);
  return `${ownerId}:${epoch}`;
}

/** Splits a kid into owner and epoch; throws invalid_kid unless it is exactly <ownerId>:<epoch>. */
export function parseKid(kid: string): { ownerId: string; epoch: string } {
  const parts = typeof kid === 'string' ? kid.split(':') : [];
  if (parts.length !== 2 || !parts[0] || !EPOCH.test(parts[1])) {
    throw new CryptoError('invalid_kid', 'kid must have the form <owner_id>:<epoch>');
  }
  return { ownerId: parts[0], epoch: parts[1] };
}

/** The epoch of a scheduled (yearly) key created at `now`: the UTC year. */
export function scheduledEpoch(now: Date): string {
  return String(now.getUTCFullYear()).padStart(4, '0');
}

/**
 * The epoch for an emergency rotation at `now`: this UTC year plus the next unused suffix among
 * existingEpochs ('2026' or none -> '2026.1'; '2026.1', '2026.3' -> '2026.4'). Epochs of other
 * years do not count.
 */
export function nextEmergencyEpoch(existingEpochs: Iterable<string>, now: Date): string {
  const year = scheduledEpoch(now);
  let highest = 0;
  for (const epoch of existingEpochs) {
    const parsed = parseEpoch(epoch);
    if (parsed.year === year) highest = Math.max(highest, parsed.suffix);
  }
  return `${year}.${highest + 1}`;
}

/** True when `at` lies in [notBefore, notAfter): at its notAfter instant a key is already retired. */
export function isKeyValidAt(record: Pick<KeyRecord, 'notBefore' | 'notAfter'>, at: Date): boolean {
  const t = at.getTime();
  return record.notBefore.getTime() <= t && (record.notAfter === null || t < record.notAfter.getTime());
}

/**
 * The key to sign with at `now` among one owner's records: valid at now, newest notBefore first
 * (ties: newest createdAt, then greatest kid, so the choice is deterministic). Null when none.
 */
export function currentKey<T extends KeyRecord>(records: readonly T[], now: Date): T | null {
  let best: T | null = null;
  for (const record of records) {
    if (!isKeyValidAt(record, now)) continue;
    if (best === null || compareRecency(record, best) > 0) best = record;
  }
  return best;
}

/**
 * The key to sign with at `at`: the one valid then (currentKey), else the newest open-ended one. The
 * second case is a replica whose clock is behind the one that made the key: it must not mint a key
 * of its own. Null only when every key is retired (or there is none).
 */
export function signingKeyAt<T extends KeyRecord>(records: readonly T[], at: Date): T | null {
  const valid = currentKey(records, at);
  if (valid) return valid;
  let open: T | null = null;
  for (const record of records) {
    if (record.notAfter === null && (open === null || compareRecency(record, open) > 0)) open = record;
  }
  return open;
}

/** True when `current` belongs to an earlier year than `now`: a yearly ring is due for its scheduled rotation. */
export function isScheduledRotationDue(current: Pick<KeyRecord, 'epoch'>, now: Date): boolean {
  return parseEpoch(current.epoch).year < scheduledEpoch(now);
}

/**
 * The publication window: a key is published while it can sign (notAfter null or in the future) and,
 * once retired, for `retiredForMs` more (null = forever, so a signature of any age stays verifiable).
 */
export function isPublished(record: Pick<KeyRecord, 'notAfter'>, now: Date, retiredForMs: number | null = null): boolean {
  return record.notAfter === null || retiredForMs === null || now.getTime() < record.notAfter.getTime() + retiredForMs;
}

/**
 * What a rotation of ownerId's ring at `now` must do: the new key starts at now, every key still
 * open gets notAfter = now (it stays published). Scheduled and emergency rotations differ only in the
 * epoch (and in what the caller does about in-flight signatures, docs/verdicts.md "Versioning").
 *
 * Decision: a scheduled rotation when the current key already belongs to this year's epoch (or this
 * year's scheduled kid is taken) throws rotation_not_due instead of quietly minting a suffixed key.
 * A yearly job may then run as often as it likes without churning keys; an operator who wants a new
 * key anyway asks for an emergency rotation, whose suffix says what happened.
 */
export function planRotation(records: readonly KeyRecord[], options: { ownerId: string; now: Date; mode: RotationMode }): RotationPlan {
  const { ownerId, now, mode } = options;
  assertOwnerId(ownerId);
  const own = records.filter((r) => r.ownerId === ownerId);

  let newEpoch: string;
  if (mode === 'scheduled') {
    newEpoch = scheduledEpoch(now);
    const current = currentKey(own, now);
    if ((current && parseEpoch(current.epoch).year === newEpoch) || own.some((r) => r.epoch === newEpoch)) {
      throw new CryptoError(
        'rotation_not_due',
        `owner ${ownerId} already has a key of epoch ${newEpoch}; use an emergency rotation for a new key`,
      );
    }
  } else {
    newEpoch = nextEmergencyEpoch(
      own.map((r) => r.epoch),
      now,
    );
  }

  const retire = own.filter((r) => r.notAfter === null || r.notAfter.getTime() > now.getTime()).map((r) => ({ kid: r.kid, notAfter: now }));
  return { mode, ownerId, newEpoch, newKid: kidFor(ownerId, newEpoch), notBefore: now, retire };
}

/**
 * The JWKS entry of a record: only the public members of its JWK (a private `d` can never leak
 * through here), plus kid, alg, use and the validity window as ISO 8601 / null.
 */
export function toPublicJwk(record: KeyRecord): PublishedJwk {
  const jwk = record.publicJwk;
  const window = {
    use: 'sig' as const,
    not_before: record.notBefore.toISOString(),
    not_after: record.notAfter === null ? null : record.notAfter.toISOString(),
  };
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string') {
    return { kid: record.kid, kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, alg: 'ES256', ...window };
  }
  // RFC 8037: Ed25519 keys are OKP JWKs with alg EdDSA.
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string') {
    return { kid: record.kid, kty: 'OKP', crv: 'Ed25519', x: jwk.x, alg: 'EdDSA', ...window };
  }
  throw new CryptoError('invalid_key', `key ${record.kid} is neither EC P-256 nor Ed25519`);
}

function parseEpoch(epoch: string): { year: string; suffix: number } {
  const match = typeof epoch === 'string' ? EPOCH.exec(epoch) : null;
  if (!match) throw new CryptoError('invalid_kid', `epoch must be a year with an optional .N suffix, got ${JSON.stringify(epoch)}`);
  return { year: match[1], suffix: match[2] === undefined ? 0 : Number(match[2]) };
}

function assertOwnerId(ownerId: string): void {
  if (typeof ownerId !== 'string' || ownerId === '' || ownerId.includes(':')) {
    throw new CryptoError('invalid_kid', 'owner id must be a non-empty string without ":"');
  }
}

function compareRecency(a: KeyRecord, b: KeyRecord): number {
  return (
    a.notBefore.getTime() - b.notBefore.getTime() ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0)
  );
}
