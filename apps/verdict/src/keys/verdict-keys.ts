import type { Logger } from 'pino';
import {
  createEs256Signer,
  currentKey,
  decryptSecret,
  encryptSecret,
  generateEs256KeyPair,
  parseKeyEncryptionKey,
  planRotation,
  scheduledEpoch,
  toPublicJwk,
  CryptoError,
  type KeyRecord,
  type PublishedJwk,
  type RotationMode,
} from '@arbiter/crypto';
import { AppError } from '@arbiter/http';
import type { PrismaClient } from '../generated/prisma/client';
import { SigningKeyRepository } from './signing-key.repository';

export interface ActiveSigner {
  kid: string;
  epoch: string;
  sign(claims: object): string;
}

interface CachedSigner {
  signer: ActiveSigner;
  loadedAt: number;
  /** A background re-read of the ring is running. */
  reloading: boolean;
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

const yearOf = (epoch: string) => epoch.split('.')[0];

/**
 * Per-tenant ES256 key rings with yearly epochs (docs/verdicts.md "Signing keys", "Versioning").
 * A tenant's key is created on first use (or by the setup endpoint); when the year turns, the first
 * signature rotates on schedule. Private keys are stored encrypted under KEY_ENCRYPTION_KEY
 * (AES-256-GCM, kid as AAD) and decrypted once per replica into a node:crypto signer.
 */
export class VerdictKeys {
  private readonly signers = new Map<string, CachedSigner>();
  private readonly loading = new Map<string, Promise<ActiveSigner>>();
  private readonly kek: Buffer;

  constructor(
    private readonly prisma: PrismaClient,
    keyEncryptionKey: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.kek = parseKeyEncryptionKey(keyEncryptionKey);
  }

  /**
   * The signer of the tenant's current key, creating or rotating the ring when needed. A cached
   * signer older than SIGNER_TTL_MS is still used while the ring is re-read in the background, so
   * the hot path never waits on the database once a tenant has signed.
   */
  async signerFor(tenantId: string): Promise<ActiveSigner> {
    const cached = this.signers.get(tenantId);
    if (cached) {
      if (Date.now() - cached.loadedAt >= SIGNER_TTL_MS && !cached.reloading) {
        cached.reloading = true;
        this.load(tenantId).catch((err) => {
          cached.reloading = false;
          this.logger.warn({ err, tenant_id: tenantId }, 'verdict signing key re-read failed; keeping the cached one');
        });
      }
      return cached.signer;
    }
    let pending = this.loading.get(tenantId);
    if (!pending) {
      pending = this.load(tenantId).finally(() => this.loading.delete(tenantId));
      this.loading.set(tenantId, pending);
    }
    return pending;
  }

  private async load(tenantId: string): Promise<ActiveSigner> {
    let record: KeyRecord | null;
    try {
      const now = this.now();
      record = currentKey(await this.records(tenantId), now);
      if (!record || yearOf(record.epoch) < scheduledEpoch(now)) record = await this.ensureCurrent(tenantId);
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.logger.error({ err, tenant_id: tenantId }, 'cannot read the verdict key ring');
      throw signingKeyUnavailable('the key ring cannot be read');
    }
    let signer: ActiveSigner;
    try {
      const privateJwk = JSON.parse(decryptSecret(record.encryptedPrivateKey, this.kek, record.kid).toString('utf8'));
      const es256 = createEs256Signer(privateJwk, record.kid);
      signer = { kid: record.kid, epoch: record.epoch, sign: (claims) => es256.sign(claims) };
    } catch (err) {
      this.logger.error({ err, kid: record.kid }, 'cannot decrypt the verdict signing key');
      throw signingKeyUnavailable('the stored key cannot be decrypted with KEY_ENCRYPTION_KEY');
    }
    this.signers.set(tenantId, { signer, loadedAt: Date.now(), reloading: false });
    return signer;
  }

  /** The setup endpoint: makes sure the tenant has a current key (idempotent). `created` tells whether one was made. */
  async ensureCurrent(tenantId: string): Promise<KeyRecord & { created?: boolean }> {
    return this.withRingLock(tenantId, async (repo, records, now) => {
      const current = currentKey(records, now);
      if (current && yearOf(current.epoch) >= scheduledEpoch(now)) return current;
      return { ...(await this.addKey(repo, records, tenantId, now, 'scheduled')), created: true };
    });
  }

  /**
   * Scheduled or emergency rotation: a new key at once, every open key closed (kept published).
   * A scheduled rotation when this year's key exists answers 409 rotation_not_due.
   */
  async rotate(tenantId: string, mode: RotationMode): Promise<KeyRotation> {
    const result = await this.withRingLock(tenantId, async (repo, records, now) => {
      const open = records.filter((r) => r.notAfter === null || r.notAfter > now).map((r) => r.kid);
      const key = await this.addKey(repo, records, tenantId, now, mode);
      return { mode, kid: key.kid, epoch: key.epoch, not_before: key.notBefore.toISOString(), retired: open };
    });
    this.invalidate(tenantId);
    return result;
  }

  /** Every key the tenant ever had, oldest first, for its JWKS. */
  async publicKeys(tenantId: string): Promise<PublishedJwk[]> {
    return (await this.records(tenantId)).map(toPublicJwk);
  }

  records(tenantId: string): Promise<KeyRecord[]> {
    return new SigningKeyRepository(this.prisma).list(tenantId);
  }

  /** The ring changed (here or on another replica): forget the cached signer. */
  invalidate(tenantId: string): void {
    this.signers.delete(tenantId);
  }

  invalidateAll(): void {
    this.signers.clear();
  }

  private async addKey(repo: SigningKeyRepository, records: KeyRecord[], tenantId: string, now: Date, mode: RotationMode): Promise<KeyRecord> {
    let plan;
    try {
      plan = planRotation(records, { ownerId: tenantId, now, mode });
    } catch (err) {
      if (err instanceof CryptoError && err.code === 'rotation_not_due') throw new AppError(409, 'rotation_not_due', err.message);
      throw err;
    }
    const { privateJwk, publicJwk } = generateEs256KeyPair();
    const record: KeyRecord = {
      kid: plan.newKid,
      ownerId: tenantId,
      epoch: plan.newEpoch,
      notBefore: plan.notBefore,
      notAfter: null,
      publicJwk,
      encryptedPrivateKey: encryptSecret(JSON.stringify(privateJwk), this.kek, plan.newKid),
      createdAt: now,
    };
    for (const r of plan.retire) await repo.retire(tenantId, r.kid, r.notAfter);
    await repo.insert(record);
    this.logger.info({ tenant_id: tenantId, kid: record.kid, mode, retired: plan.retire.map((r) => r.kid) }, 'verdict signing key created');
    return record;
  }

  /** Replicas (and the CLI) serialise changes to one tenant's ring on a transaction-scoped advisory lock. */
  private async withRingLock<T>(tenantId: string, fn: (repo: SigningKeyRepository, records: KeyRecord[], now: Date) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${'verdict-keys:' + tenantId}))::text`;
        const repo = new SigningKeyRepository(tx);
        return fn(repo, await repo.list(tenantId), this.now());
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  }
}
