import type { Logger } from 'pino';
import { CryptoError, type KeyRecord, type PublishedJwk, type RotationMode } from '@arbiter/crypto';
import { insertSealRow, keySealRow } from '@arbiter/db';
import { es256JwsKeys, KeyStore, type KeyChangeRecorder, type ReencryptionResult, type SqlPool } from '@arbiter/keystore';
import { AppError } from '@arbiter/http';

export interface ActiveSigner {
  kid: string;
  epoch: string;
  sign(claims: object): string;
}

export interface KeyRotation {
  mode: RotationMode;
  kid: string;
  epoch: string;
  not_before: string;
  /** kids closed by this rotation (not_after = now); they stay published. */
  retired: string[];
}

/**
 * How long a replica signs with its cached key before re-reading the ring. Rotations are also
 * announced on Redis (VERDICT_KEYS_CHANNEL) and drop the cache at once; this bounds a lost message.
 */
export const SIGNER_TTL_MS = 10_000;

export const signingKeyUnavailable = (why: string) =>
  new AppError(500, 'signing_key_unavailable', 'The verdict signing key could not be resolved', { reason: why });

/**
 * Seals every key a tenant's ring gains in `arbiter.<tenant_id>.keys` (docs/ledger-formats.md "The keys
 * stream"): a seal_outbox row written in the transaction that creates the key, so no key signs a verdict
 * without its seal on the way, and `onSealed` (the relay's nudge) once it committed.
 */
export function keySealRecorder<Sign>(onSealed?: () => void): KeyChangeRecorder<Sign> {
  return {
    record: (db, change) =>
      insertSealRow(
        db,
        keySealRow(change.ownerId, {
          kid: change.key.kid,
          publicJwk: change.key.publicJwk,
          notBefore: change.key.notBefore,
          mode: change.first ? 'first' : change.mode,
          retired: change.retired.map((r) => ({ kid: r.kid, notAfter: r.notAfter ?? change.key.notBefore })),
        }),
      ),
    committed: () => onSealed?.(),
  };
}

/**
 * The verdict gateway's per-tenant ES256 rings (docs/verdicts.md "Signing keys"), kept by @arbiter/keystore in
 * signing_keys with owner = tenant id. What is the gateway's own: a tenant's key is made on first use and
 * rotates on schedule at its first signature of a new year; the current signer is cached for
 * SIGNER_TTL_MS; failures answer in the gateway's error shape (500 signing_key_unavailable, 409
 * rotation_not_due).
 */
export class VerdictKeys {
  private readonly store: KeyStore<(claims: object) => string>;

  constructor(
    pool: SqlPool,
    /** KEY_ENCRYPTION_KEY, or it with KEY_ENCRYPTION_KEY_PREVIOUS during its rotation. */
    keyEncryptionKey: string | { current: string; previous?: string },
    private readonly logger: Logger,
    now?: () => Date,
    /** LEDGER_SEALING: every key change is sealed in the tenant's keys stream (keySealRecorder); null: not sealed (benchmarks only). */
    sealing: { onSealed?: () => void } | null = {},
  ) {
    const keks = typeof keyEncryptionKey === 'string' ? { current: keyEncryptionKey } : keyEncryptionKey;
    this.store = new KeyStore({
      pool,
      table: 'signing_keys',
      type: es256JwsKeys,
      keyEncryptionKey: keks.current,
      previousKeyEncryptionKey: keks.previous,
      rotateYearly: true,
      signerCacheMs: SIGNER_TTL_MS,
      clock: now,
      logger,
      recorder: sealing ? keySealRecorder(sealing.onSealed) : undefined,
    });
  }

  /** The signer of the tenant's current key, creating or rotating the ring when needed. */
  async signerFor(tenantId: string): Promise<ActiveSigner> {
    try {
      return await this.store.signer(tenantId);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof CryptoError) {
        this.logger.error({ err, tenant_id: tenantId }, 'cannot decrypt the verdict signing key');
        throw signingKeyUnavailable('the stored key cannot be decrypted with KEY_ENCRYPTION_KEY');
      }
      this.logger.error({ err, tenant_id: tenantId }, 'cannot read the verdict key ring');
      throw signingKeyUnavailable('the key ring cannot be read');
    }
  }

  /** `keys reencrypt` of the CLI: every tenant's keys stored under the current KEY_ENCRYPTION_KEY (KeyStore.reencrypt). */
  reencrypt(): Promise<ReencryptionResult> {
    return this.store.reencrypt();
  }

  /** The setup endpoint: makes sure the tenant has a current key (idempotent). `created` tells whether one was made. */
  ensureCurrent(tenantId: string): Promise<{ key: KeyRecord; created: boolean }> {
    return this.store.ensureCurrent(tenantId);
  }

  /** Scheduled or emergency rotation; a scheduled one when this year's key exists answers 409 rotation_not_due. */
  async rotate(tenantId: string, mode: RotationMode): Promise<KeyRotation> {
    try {
      const { key, retired } = await this.store.rotate(tenantId, mode);
      return { mode, kid: key.kid, epoch: key.epoch, not_before: key.notBefore.toISOString(), retired };
    } catch (err) {
      if (err instanceof CryptoError && err.code === 'rotation_not_due') throw new AppError(409, 'rotation_not_due', err.message);
      throw err;
    }
  }

  /** Every key the tenant ever had, oldest first, for its JWKS. */
  publicKeys(tenantId: string): Promise<PublishedJwk[]> {
    return this.store.published(tenantId);
  }

  records(tenantId: string): Promise<KeyRecord[]> {
    return this.store.records(tenantId);
  }

  /** The ring changed (here or on another replica): forget the cached signer. */
  invalidate(tenantId: string): void {
    this.store.invalidate(tenantId);
  }

  invalidateAll(): void {
    this.store.invalidateAll();
  }
}
