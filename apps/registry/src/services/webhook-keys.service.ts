import {
  CryptoError,
  currentKey,
  decryptSecret,
  encryptSecret,
  generateP256KeyPair,
  p256PublicKeyFromJwk,
  p256PublicKeyToJwk,
  p256PublicKeyToPem,
  p256SignHex,
  planRotation,
  type KeyRecord,
  type RotationMode,
} from '@arbiter/crypto';
import type { PrismaClient } from '../generated/prisma/client';
import { badRequest } from '../http/errors';
import type { WebhookKeyRotation, WebhookKeySet, WebhookPublicKey } from '../models/webhooks';
import { WEBHOOK_KEY_OWNER, WebhookKeysRepository } from '../repositories/webhook-keys.repository';

export interface WebhookSigner {
  kid: string;
  /** Hex of the 64-byte r||s ECDSA P-256 / SHA-256 signature (docs/webhooks.md). */
  sign(message: string): string;
}

/**
 * The webhook signing key ring (docs/webhooks.md): ECDSA P-256 keys whose private halves are
 * stored encrypted under KEY_ENCRYPTION_KEY (AES-256-GCM, the kid as AAD) and never leave this
 * service; rotation by epoch through @arbiter/crypto's planRotation; retired keys stay published
 * so a receiver can still check a delivery signed just before a rotation.
 */
export class WebhookKeysService {
  private readonly privateKeys = new Map<string, Uint8Array>();
  private readonly pems = new Map<string, string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly kek: Buffer,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Every key, the current one also at the top level (GET /.well-known/webhook-key). */
  async keySet(): Promise<WebhookKeySet> {
    const records = await new WebhookKeysRepository(this.prisma).all();
    const current = signingKey(records, this.clock()) ?? (await this.ensureCurrent());
    const keys = records.map((r) => this.publish(r));
    const top = keys.find((k) => k.kid === current.kid) ?? this.publish(current);
    return { ...top, keys };
  }

  /**
   * Makes sure a key is current, creating this year's key when none is (first start). Replicas
   * starting together serialise on the key-ring lock: only one creates the key.
   */
  async ensureCurrent(): Promise<KeyRecord> {
    const existing = signingKey(await new WebhookKeysRepository(this.prisma).all(), this.clock());
    if (existing) return existing;
    return WebhookKeysRepository.locked(this.prisma, async (repo) => {
      const now = this.clock();
      const records = await repo.all();
      const current = signingKey(records, now);
      if (current) return current;
      let mode: RotationMode = 'scheduled';
      try {
        planRotation(records, { ownerId: WEBHOOK_KEY_OWNER, now, mode });
      } catch (err) {
        if (!(err instanceof CryptoError) || err.code !== 'rotation_not_due') throw err;
        mode = 'emergency';
      }
      return (await this.applyRotation(repo, records, mode, now)).record;
    });
  }

  /** Decrypts the current key: a wrong KEY_ENCRYPTION_KEY stops the start instead of the first delivery. */
  async checkCurrent(): Promise<string> {
    const record = await this.ensureCurrent();
    this.privateKeyOf(record);
    return record.kid;
  }

  async rotate(mode: RotationMode): Promise<WebhookKeyRotation> {
    try {
      const { record, retired } = await WebhookKeysRepository.locked(this.prisma, async (repo) => this.applyRotation(repo, await repo.all(), mode, this.clock()));
      const keys = (await new WebhookKeysRepository(this.prisma).all()).map((r) => this.publish(r));
      return { mode, kid: record.kid, retired, keys };
    } catch (err) {
      if (err instanceof CryptoError && err.code === 'rotation_not_due') throw badRequest(err.message);
      throw err;
    }
  }

  /** The key to sign with now; its private half is decrypted once per process. */
  async signer(): Promise<WebhookSigner> {
    const record = signingKey(await new WebhookKeysRepository(this.prisma).all(), this.clock()) ?? (await this.ensureCurrent());
    const privateKey = this.privateKeyOf(record);
    return { kid: record.kid, sign: (message) => p256SignHex(message, privateKey) };
  }

  private publish(record: KeyRecord): WebhookPublicKey {
    const jwk = record.publicJwk as { x: string; y: string };
    let pem = this.pems.get(record.kid);
    if (!pem) {
      pem = p256PublicKeyToPem(p256PublicKeyFromJwk({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }));
      this.pems.set(record.kid, pem);
    }
    return {
      kid: record.kid,
      alg: 'ES256',
      jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: record.kid, alg: 'ES256', use: 'sig' },
      pem,
      not_before: record.notBefore.toISOString(),
      not_after: record.notAfter ? record.notAfter.toISOString() : null,
    };
  }

  private privateKeyOf(record: KeyRecord): Uint8Array {
    let key = this.privateKeys.get(record.kid);
    if (!key) {
      key = new Uint8Array(decryptSecret(record.encryptedPrivateKey, this.kek, record.kid));
      this.privateKeys.set(record.kid, key);
    }
    return key;
  }

  private async applyRotation(repo: WebhookKeysRepository, records: KeyRecord[], mode: RotationMode, now: Date) {
    const plan = planRotation(records, { ownerId: WEBHOOK_KEY_OWNER, now, mode });
    const pair = generateP256KeyPair();
    const record: KeyRecord = {
      kid: plan.newKid,
      ownerId: WEBHOOK_KEY_OWNER,
      epoch: plan.newEpoch,
      notBefore: plan.notBefore,
      notAfter: null,
      publicJwk: p256PublicKeyToJwk(pair.publicKey),
      encryptedPrivateKey: encryptSecret(pair.privateKey, this.kek, plan.newKid),
      createdAt: now,
    };
    const retired = plan.retire.map((r) => r.kid);
    await repo.retire(retired, now);
    await repo.insert(record);
    return { record, retired };
  }
}

/**
 * The key to sign with at `at`: the one valid then, else the open-ended one (a replica whose
 * clock is behind the one that made the key must not mint a key of its own).
 */
function signingKey(records: KeyRecord[], at: Date): KeyRecord | null {
  const open = records.filter((r) => r.notAfter === null).sort((a, b) => b.notBefore.getTime() - a.notBefore.getTime());
  return currentKey(records, at) ?? open[0] ?? null;
}
