import type { KeyRecord } from '@arbiter/crypto';
import type { Prisma, PrismaClient, WebhookSigningKey as WebhookSigningKeyRow } from '../generated/prisma/client';

/** The registry's webhook key ring: owner `webhooks`, kids `webhooks:<epoch>` (docs/webhooks.md). */
export const WEBHOOK_KEY_OWNER = 'webhooks';
export const P256_ALGORITHM = 'ES256';
/** pg_advisory_xact_lock key serialising key creation and rotation across replicas ('WHKR'). */
const KEY_RING_LOCK = 0x57484b52;

type Db = PrismaClient | Prisma.TransactionClient;

function toRecord(row: WebhookSigningKeyRow): KeyRecord {
  return {
    kid: row.kid,
    ownerId: row.owner_id,
    epoch: row.epoch,
    notBefore: row.not_before,
    notAfter: row.not_after,
    publicJwk: row.public_jwk as KeyRecord['publicJwk'],
    encryptedPrivateKey: row.encrypted_private_key,
    createdAt: row.created_at,
  };
}

export class WebhookKeysRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<KeyRecord[]> {
    const rows = await this.db.webhookSigningKey.findMany({ where: { owner_id: WEBHOOK_KEY_OWNER }, orderBy: [{ not_before: 'asc' }, { kid: 'asc' }] });
    return rows.map(toRecord);
  }

  async insert(record: KeyRecord): Promise<void> {
    await this.db.webhookSigningKey.create({
      data: {
        kid: record.kid,
        owner_id: record.ownerId,
        epoch: record.epoch,
        algorithm: P256_ALGORITHM,
        public_jwk: record.publicJwk as Prisma.InputJsonValue,
        encrypted_private_key: record.encryptedPrivateKey,
        not_before: record.notBefore,
        not_after: record.notAfter,
        created_at: record.createdAt,
      },
    });
  }

  async retire(kids: string[], notAfter: Date): Promise<void> {
    if (kids.length) await this.db.webhookSigningKey.updateMany({ where: { owner_id: WEBHOOK_KEY_OWNER, kid: { in: kids } }, data: { not_after: notAfter } });
  }

  /** Runs fn in a transaction holding the key-ring lock, so replicas never mint two keys at once. */
  static async locked<T>(prisma: PrismaClient, fn: (repo: WebhookKeysRepository) => Promise<T>): Promise<T> {
    return prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${KEY_RING_LOCK})`);
      return fn(new WebhookKeysRepository(tx));
    });
  }
}
