import type { JWK, KeyRecord } from '@arbiter/crypto';

// The one table shape of every key ring (docs/operations.md "Keys and their rotation"). Each service keeps
// its own table in its own database (registry: webhook_signing_keys, verdict and ledger: signing_keys):
//
//   kid TEXT PRIMARY KEY, owner_id TEXT, epoch TEXT, algorithm TEXT, public_jwk JSONB,
//   encrypted_private_key TEXT, not_before TIMESTAMPTZ(3), not_after TIMESTAMPTZ(3) NULL,
//   created_at TIMESTAMPTZ(3), UNIQUE (owner_id, epoch)
//
// The unique (owner_id, epoch) is the last guard against two keys of one epoch; the advisory lock of
// KeyTable.locked keeps replicas from even trying.

/** What the store needs of a database connection: pg's Pool, PoolClient and Client all fit. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A pool that lends a connection for a transaction (pg's Pool). */
export interface SqlPool extends SqlClient {
  connect(): Promise<SqlClient & { release(err?: Error | boolean): void }>;
}

/** A stored key: the ring's record plus the algorithm column. */
export interface StoredKey extends KeyRecord {
  algorithm: string;
}

interface KeyRow {
  kid: string;
  owner_id: string;
  epoch: string;
  algorithm: string;
  public_jwk: JWK;
  encrypted_private_key: string;
  not_before: Date;
  not_after: Date | null;
  created_at: Date;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const COLUMNS = 'kid, owner_id, epoch, algorithm, public_jwk, encrypted_private_key, not_before, not_after, created_at';
/** How long a rotation waits for another replica's rotation of the same ring before giving up. */
const LOCK_TIMEOUT = '10s';

/** SQL over one key table. Every statement names the owner: one ring never reads or closes another's keys. */
export class KeyTable {
  private readonly table: string;

  constructor(table: string) {
    if (!TABLE_NAME.test(table)) throw new TypeError(`key table name must be a lower-case SQL identifier, got ${JSON.stringify(table)}`);
    this.table = `"${table}"`;
  }

  /** One owner's keys, oldest first. */
  async list(db: SqlClient, ownerId: string): Promise<StoredKey[]> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${this.table} WHERE owner_id = $1 ORDER BY not_before, kid`, [ownerId]);
    return (rows as KeyRow[]).map(toStoredKey);
  }

  async insert(db: SqlClient, key: StoredKey): Promise<void> {
    await db.query(`INSERT INTO ${this.table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`, [
      key.kid,
      key.ownerId,
      key.epoch,
      key.algorithm,
      JSON.stringify(key.publicJwk),
      key.encryptedPrivateKey,
      key.notBefore,
      key.notAfter,
      key.createdAt,
    ]);
  }

  /** Closes the owner's keys `kids` at notAfter; they stay in the table (and published). */
  async retire(db: SqlClient, ownerId: string, kids: string[], notAfter: Date): Promise<void> {
    if (kids.length)
      await db.query(`UPDATE ${this.table} SET not_after = $3 WHERE owner_id = $1 AND kid = ANY($2::text[])`, [ownerId, kids, notAfter]);
  }

  /** Every key of the table, of every owner, each row locked until the transaction ends (re-encryption). */
  async allForUpdate(db: SqlClient): Promise<StoredKey[]> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${this.table} ORDER BY owner_id, not_before, kid FOR UPDATE`);
    return (rows as KeyRow[]).map(toStoredKey);
  }

  /** Replaces a key's encrypted private half (the same private key under another KEY_ENCRYPTION_KEY). */
  async setEncryptedPrivateKey(db: SqlClient, kid: string, encryptedPrivateKey: string): Promise<void> {
    await db.query(`UPDATE ${this.table} SET encrypted_private_key = $2 WHERE kid = $1`, [kid, encryptedPrivateKey]);
  }

  /**
   * Runs fn in a transaction holding a transaction-scoped advisory lock on (table, owner): replicas, the
   * CLI and the admin endpoints change one ring one at a time, each reading the ring only once it holds
   * the lock.
   */
  locked<T>(pool: SqlPool, ownerId: string, fn: (db: SqlClient) => Promise<T>): Promise<T> {
    return this.transaction(pool, async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`keystore:${this.table}:${ownerId}`]);
      return fn(db);
    });
  }

  /** Runs fn in one transaction (committed when fn resolves, rolled back when it throws), with LOCK_TIMEOUT. */
  async transaction<T>(pool: SqlPool, fn: (db: SqlClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken = rollbackErr));
        throw err;
      }
    } finally {
      client.release(broken);
    }
  }
}

function toStoredKey(row: KeyRow): StoredKey {
  return {
    kid: row.kid,
    ownerId: row.owner_id,
    epoch: row.epoch,
    algorithm: row.algorithm,
    notBefore: row.not_before,
    notAfter: row.not_after,
    publicJwk: row.public_jwk,
    encryptedPrivateKey: row.encrypted_private_key,
    createdAt: row.created_at,
  };
}
