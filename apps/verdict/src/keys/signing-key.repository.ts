import type { JWK, KeyRecord } from '@arbiter/crypto';
import type { Prisma, PrismaClient, SigningKey } from '../generated/prisma/client';

type Db = PrismaClient | Prisma.TransactionClient;

function toRecord(row: SigningKey): KeyRecord {
  return {
    kid: row.kid,
    ownerId: row.owner_id,
    epoch: row.epoch,
    notBefore: row.not_before,
    notAfter: row.not_after,
    publicJwk: row.public_jwk as JWK,
    encryptedPrivateKey: row.encrypted_private_key,
    createdAt: row.created_at,
  };
}

/** A tenant's ES256 key ring (owner_id = tenant id). */
export class SigningKeyRepository {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<KeyRecord[]> {
    const rows = await this.db.signingKey.findMany({ where: { owner_id: tenantId }, orderBy: [{ not_before: 'asc' }, { kid: 'asc' }] });
    return rows.map(toRecord);
  }

  async insert(record: KeyRecord): Promise<void> {
    await this.db.signingKey.create({
      data: {
        kid: record.kid,
        owner_id: record.ownerId,
        epoch: record.epoch,
        algorithm: 'ES256',
        public_jwk: record.publicJwk as Prisma.InputJsonValue,
        encrypted_private_key: record.encryptedPrivateKey,
        not_before: record.notBefore,
        not_after: record.notAfter,
        created_at: record.createdAt,
      },
    });
  }

  async retire(tenantId: string, kid: string, notAfter: Date): Promise<void> {
    await this.db.signingKey.updateMany({ where: { owner_id: tenantId, kid }, data: { not_after: notAfter } });
  }
}
