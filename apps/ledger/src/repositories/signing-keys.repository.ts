import type { KeyRecord } from '@arbiter/crypto';
import type { Prisma, PrismaClient, SigningKey as SigningKeyRow } from '../generated/prisma/client';

/** The ledger's own key ring: owner_id 'ledger' in signing_keys (docs/ledger-formats.md). */
export const LEDGER_KEY_OWNER = 'ledger';
export const ED25519_ALGORITHM = 'Ed25519';
/** pg_advisory_xact_lock key serialising key creation and rotation across replicas ('LEDG'). */
const KEY_RING_LOCK = 0x4c454447;

type Db = PrismaClient | Prisma.TransactionClient;

function toRecord(row: SigningKeyRow): KeyRecord {
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

export class SigningKeysRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<KeyRecord[]> {
    const rows = await this.db.signingKey.findMany({ where: { owner_id: LEDGER_KEY_OWNER }, orderBy: [{ not_before: 'asc' }, { kid: 'asc' }] });
    return rows.map(toRecord);
  }

  async insert(record: KeyRecord): Promise<void> {
    await this.db.signingKey.create({
      data: {
        kid: record.kid,
        owner_id: record.ownerId,
        epoch: record.epoch,
        algorithm: ED25519_ALGORITHM,
        public_jwk: record.publicJwk as Prisma.InputJsonValue,
        encrypted_private_key: record.encryptedPrivateKey,
        not_before: record.notBefore,
        not_after: record.notAfter,
        created_at: record.createdAt,
      },
    });
  }

  async retire(kids: string[], notAfter: Date): Promise<void> {
    if (kids.length) await this.db.signingKey.updateMany({ where: { owner_id: LEDGER_KEY_OWNER, kid: { in: kids } }, data: { not_after: notAfter } });
  }

  /** Runs fn in a transaction holding the key-ring lock, so replicas never mint two keys at once. */
  static async locked<T>(prisma: PrismaClient, fn: (repo: SigningKeysRepository) => Promise<T>): Promise<T> {
    return prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${KEY_RING_LOCK})`);
      return fn(new SigningKeysRepository(tx));
    });
  }
}
