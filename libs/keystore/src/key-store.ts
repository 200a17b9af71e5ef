import {
  CryptoError,
  decryptSecretRotating,
  encryptSecret,
  isPublished,
  isScheduledRotationDue,
  parseKeyEncryptionKey,
  planRotation,
  signingKeyAt,
  toPublicJwk,
  type KeyRecord,
  type PublishedJwk,
  type RotationMode,
} from '@arbiter/crypto';
import { isUniqueViolation } from '@arbiter/db';
import { KeyTable, type SqlClient, type SqlPool, type StoredKey } from './key-table';
import type { KeyType } from './key-types';

// Persistence and rotation of epoch key rings (docs/operations.md "Keys and their rotation"), on top of
// @arbiter/crypto's pure key ring: the ring rules (kids, epochs, windows, planRotation) live there, the
// table, the lock, encryption at rest and the caches here. One store serves every ring of the platform:
// verdict's per-tenant ES256 keys, the ledger's Ed25519 bundle key, the registry's P-256 webhook key.

export interface KeyStoreLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface KeyStoreOptions<Sign> {
  /** The service's pg pool (a Prisma client may share it). */
  pool: SqlPool;
  /** The service's key table, of the one shape (key-table.ts). */
  table: string;
  type: KeyType<Sign>;
  /** KEY_ENCRYPTION_KEY, as text or as its 32 bytes. Private halves are AES-256-GCM under it, the kid as AAD. */
  keyEncryptionKey: Buffer | string;
  /**
   * KEY_ENCRYPTION_KEY_PREVIOUS, during a rotation of KEY_ENCRYPTION_KEY: a private half the current key does
   * not open is tried with it. New keys are always encrypted under the current one; reencrypt() moves the
   * stored ones over, after which this can go.
   */
  previousKeyEncryptionKey?: Buffer | string;
  /**
   * The scheduled rotation happens by itself: the first signature in a new UTC year makes that year's
   * key. Off, a ring keeps its key until an operator rotates it (a yearly job).
   */
  rotateYearly?: boolean;
  /**
   * How long signer() answers a cached current key before re-reading the ring; a stale one is still
   * answered while the re-read runs, so a signature never waits on the database once a ring has
   * signed. 0 (the default): the ring is read at every signer() call.
   */
  signerCacheMs?: number;
  /** How long a retired key stays published after its not_after; null (the default): forever. */
  publishRetiredForMs?: number | null;
  clock?: () => Date;
  logger?: KeyStoreLogger;
  /**
   * Records every key the ring gains (its first key, a scheduled or an emergency rotation) with the same
   * commit: the verdict gateway seals it in the tenant's `keys` stream, the ledger signs a transition
   * statement (docs/operations.md "Keys and their rotation").
   */
  recorder?: KeyChangeRecorder<Sign>;
}

/** A key the ring gained, and the keys it closed. */
export interface KeyChange<Sign> {
  ownerId: string;
  mode: RotationMode;
  /** The ring had no key before this one. */
  first: boolean;
  key: StoredKey;
  /** The keys this change closed, with their new not_after. */
  retired: StoredKey[];
  /** The signing function of a key of this ring (the new one, or a retired one: a transition signed by the old key). */
  open(record: StoredKey): Sign;
}

export interface KeyChangeRecorder<Sign> {
  /**
   * Called in the transaction that adds the key, after its row is written and the retired ones are
   * closed: what it writes commits with the key, and a throw rolls the whole change back.
   */
  record(db: SqlClient, change: KeyChange<Sign>): Promise<void>;
  /** Called once that transaction committed (e.g. to wake a relay). */
  committed?(change: KeyChange<Sign>): void;
}

/** The key to sign with now, its private half decrypted. */
export interface SigningKey<Sign> {
  kid: string;
  epoch: string;
  /** A signature must not claim a time before this. */
  notBeforeMs: number;
  sign: Sign;
}

/** What reencrypt() did to a table. */
export interface ReencryptionResult {
  table: string;
  /** Keys in the table, of every owner. */
  keys: number;
  /** Keys found under the previous KEY_ENCRYPTION_KEY and now stored under the current one. */
  reencrypted: string[];
  /** Keys the current KEY_ENCRYPTION_KEY already opened (untouched). */
  alreadyCurrent: number;
}

export interface RotationResult {
  mode: RotationMode;
  key: StoredKey;
  /** kids closed by the rotation (not_after = its instant); they stay published. */
  retired: string[];
}

interface CachedKey<Sign> {
  key: SigningKey<Sign>;
  loadedAt: number;
  reloading: boolean;
}

/** How many times load() reads the ring when invalidations keep arriving during the read. */
const MAX_RING_READS = 3;

const silent: KeyStoreLogger = { info: () => undefined, warn: () => undefined };

export class KeyStore<Sign> {
  private readonly table: KeyTable;
  private readonly kek: Buffer;
  private readonly previousKek: Buffer | null;
  private readonly clock: () => Date;
  private readonly logger: KeyStoreLogger;
  /** kid → signing function: each private half is decrypted once per process. */
  private readonly opened = new Map<string, Sign>();
  /** owner → its current key (signerCacheMs > 0 only). */
  private readonly current = new Map<string, CachedKey<Sign>>();
  private readonly loading = new Map<string, Promise<SigningKey<Sign>>>();
  /** Moves at every invalidation: a read of the ring that began before one may predate the change it announces. */
  private invalidations = 0;

  constructor(private readonly options: KeyStoreOptions<Sign>) {
    this.table = new KeyTable(options.table);
    this.kek = asKek(options.keyEncryptionKey);
    this.previousKek = options.previousKeyEncryptionKey === undefined ? null : asKek(options.previousKeyEncryptionKey);
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? silent;
  }

  /** The ring of one owner, for services with a single ring. */
  ring(ownerId: string): KeyRing<Sign> {
    return new KeyRing(this, ownerId);
  }

  /** Every key the owner ever had, oldest first. */
  records(ownerId: string): Promise<StoredKey[]> {
    return this.table.list(this.options.pool, ownerId);
  }

  /** The keys inside their publication window, oldest first. */
  async publishedRecords(ownerId: string): Promise<StoredKey[]> {
    const now = this.clock();
    return (await this.records(ownerId)).filter((r) => isPublished(r, now, this.options.publishRetiredForMs ?? null));
  }

  /** The published keys as JWKs with their windows (a JWKS's `keys`). */
  async published(ownerId: string): Promise<PublishedJwk[]> {
    return (await this.publishedRecords(ownerId)).map(toPublicJwk);
  }

  /**
   * Makes sure the owner has a key to sign with, creating one when it has none (first use, or every
   * key retired) or, with rotateYearly, when the year has turned. `created` tells whether this call
   * made it. Replicas racing here serialise on the ring's lock: one creates, the others read it.
   */
  async ensureCurrent(ownerId: string): Promise<{ key: StoredKey; created: boolean }> {
    const existing = signingKeyAt(await this.records(ownerId), this.clock());
    if (existing && !this.due(existing, this.clock())) return { key: existing, created: false };
    try {
      return await this.table
        .locked(this.options.pool, ownerId, async (db) => {
          const now = this.clock();
          const records = await this.table.list(db, ownerId);
          const current = signingKeyAt(records, now);
          if (current && !this.due(current, now)) return { key: current, created: false };
          // This year's scheduled kid may be taken (every key retired early): then the next emergency epoch.
          let mode: RotationMode = 'scheduled';
          try {
            planRotation(records, { ownerId, now, mode });
          } catch (err) {
            if (!(err instanceof CryptoError) || err.code !== 'rotation_not_due') throw err;
            mode = 'emergency';
          }
          const added = await this.addKey(db, records, ownerId, mode, now);
          return { key: added.key, created: true, change: added.change };
        })
        .then(({ change, ...made }) => {
          this.committed(change);
          return made;
        });
    } catch (err) {
      // The unique (owner_id, epoch) stopped a racing creator that did not take the same lock: use its key.
      if (!isUniqueViolation(err)) throw err;
      const made = signingKeyAt(await this.records(ownerId), this.clock());
      if (!made) throw err;
      return { key: made, created: false };
    }
  }

  /**
   * A scheduled or emergency rotation: a new key valid from now, every open key closed at now (and
   * kept published). A scheduled rotation when this year's key exists throws CryptoError
   * rotation_not_due; each service answers it in its own error shape.
   */
  async rotate(ownerId: string, mode: RotationMode): Promise<RotationResult> {
    const { change, ...result } = await this.table.locked(this.options.pool, ownerId, async (db) =>
      this.addKey(db, await this.table.list(db, ownerId), ownerId, mode, this.clock()),
    );
    this.invalidate(ownerId);
    this.committed(change);
    return result;
  }

  /**
   * The key to sign with at `at` (default now), created when the owner has none. Without `at` and with
   * signerCacheMs, the answer comes from the cache (see KeyStoreOptions.signerCacheMs).
   */
  async signer(ownerId: string, at?: Date): Promise<SigningKey<Sign>> {
    const ttl = this.options.signerCacheMs ?? 0;
    if (at !== undefined || ttl <= 0) return this.load(ownerId, at);
    const cached = this.current.get(ownerId);
    if (cached) {
      if (Date.now() - cached.loadedAt >= ttl && !cached.reloading) {
        cached.reloading = true;
        this.load(ownerId).catch((err: unknown) => {
          cached.reloading = false;
          this.logger.warn({ err, table: this.options.table, owner_id: ownerId }, 'signing key re-read failed; keeping the cached one');
        });
      }
      return cached.key;
    }
    let pending = this.loading.get(ownerId);
    if (!pending) {
      pending = this.load(ownerId).finally(() => this.loading.delete(ownerId));
      this.loading.set(ownerId, pending);
    }
    return pending;
  }

  /**
   * Makes sure a key is current and that KEY_ENCRYPTION_KEY opens it; answers its kid. Called at start,
   * so a wrong KEY_ENCRYPTION_KEY stops the start instead of the first signature.
   */
  async checkCurrent(ownerId: string): Promise<string> {
    const { key } = await this.ensureCurrent(ownerId);
    this.open(key);
    return key.kid;
  }

  /**
   * Stores every private half of the table (every owner) under the current KEY_ENCRYPTION_KEY: the ones only the
   * previous key opens are decrypted with it and encrypted again, in one transaction holding their rows, so a
   * rotation or a second run waits for it. Idempotent: a second run finds every key current and changes nothing.
   * A key neither key opens stops it with CryptoError decryption_failed naming the kids, and nothing changes.
   */
  async reencrypt(): Promise<ReencryptionResult> {
    const result = await this.table.transaction(this.options.pool, async (db) => {
      const records = await this.table.allForUpdate(db);
      const reencrypted: string[] = [];
      const unreadable: string[] = [];
      for (const record of records) {
        const opened = this.decrypt(record);
        if (!opened) unreadable.push(record.kid);
        else if (opened.under === 'previous') {
          await this.table.setEncryptedPrivateKey(db, record.kid, encryptSecret(opened.privateKey, this.kek, record.kid));
          reencrypted.push(record.kid);
        }
      }
      if (unreadable.length) {
        throw new CryptoError(
          'decryption_failed',
          `neither KEY_ENCRYPTION_KEY nor KEY_ENCRYPTION_KEY_PREVIOUS opens ${unreadable.join(', ')}`,
        );
      }
      return { table: this.options.table, keys: records.length, reencrypted, alreadyCurrent: records.length - reencrypted.length };
    });
    if (result.reencrypted.length) this.logger.info({ table: this.options.table, kids: result.reencrypted }, 'signing keys re-encrypted');
    return result;
  }

  /** The ring changed elsewhere (another replica, the CLI): forget the owner's cached current key. */
  invalidate(ownerId: string): void {
    this.invalidations++;
    this.current.delete(ownerId);
  }

  invalidateAll(): void {
    this.invalidations++;
    this.current.clear();
  }

  /**
   * The owner's key at `at` (default now). Without `at` and with signerCacheMs it is also cached, unless an
   * invalidation arrived while the ring was read: that read may predate a rotation, so the ring is read again (a
   * retired key is never cached back after the rotation that retired it was announced).
   */
  private async load(ownerId: string, at?: Date): Promise<SigningKey<Sign>> {
    const caches = at === undefined && (this.options.signerCacheMs ?? 0) > 0;
    for (let attempt = 1; ; attempt++) {
      const seen = this.invalidations;
      const instant = at ?? this.clock();
      let record: StoredKey | null = signingKeyAt(await this.records(ownerId), instant);
      if (!record || this.due(record, instant)) record = (await this.ensureCurrent(ownerId)).key;
      const key: SigningKey<Sign> = {
        kid: record.kid,
        epoch: record.epoch,
        notBeforeMs: record.notBefore.getTime(),
        sign: this.open(record),
      };
      if (!caches) return key;
      if (this.invalidations === seen) {
        this.current.set(ownerId, { key, loadedAt: Date.now(), reloading: false });
        return key;
      }
      // Rotations in a row (any owner's) kept overtaking the reads: this last one began after an announced change.
      if (attempt >= MAX_RING_READS) return key;
    }
  }

  /** The signing function of a stored key; throws CryptoError decryption_failed under a wrong KEY_ENCRYPTION_KEY. */
  private open(record: StoredKey): Sign {
    let sign = this.opened.get(record.kid);
    if (sign === undefined) {
      if (record.algorithm !== this.options.type.algorithm) {
        throw new CryptoError('invalid_key', `key ${record.kid} is ${record.algorithm}, this ring holds ${this.options.type.algorithm}`);
      }
      const opened = this.decrypt(record);
      if (!opened) throw new CryptoError('decryption_failed', `the private key of ${record.kid} does not decrypt with KEY_ENCRYPTION_KEY`);
      sign = this.options.type.open(opened.privateKey, record.kid);
      this.opened.set(record.kid, sign);
    }
    return sign;
  }

  /**
   * A stored private half, decrypted with the current KEY_ENCRYPTION_KEY or else the previous one; null when
   * neither opens it. A malformed blob throws.
   */
  private decrypt(record: StoredKey): { privateKey: Buffer; under: 'current' | 'previous' } | null {
    try {
      const { plaintext, under } = decryptSecretRotating(record.encryptedPrivateKey, this.kek, this.previousKek, record.kid);
      return { privateKey: plaintext, under };
    } catch (err) {
      if (err instanceof CryptoError && err.code === 'decryption_failed') return null;
      throw err;
    }
  }

  private due(current: KeyRecord, now: Date): boolean {
    return this.options.rotateYearly === true && isScheduledRotationDue(current, now);
  }

  private committed(change: KeyChange<Sign> | undefined): void {
    if (change) this.options.recorder?.committed?.(change);
  }

  private async addKey(
    db: SqlClient,
    records: StoredKey[],
    ownerId: string,
    mode: RotationMode,
    now: Date,
  ): Promise<RotationResult & { change?: KeyChange<Sign> }> {
    const plan = planRotation(records, { ownerId, now, mode });
    const { publicJwk, privateKey } = this.options.type.generate();
    const key: StoredKey = {
      kid: plan.newKid,
      ownerId,
      epoch: plan.newEpoch,
      algorithm: this.options.type.algorithm,
      notBefore: plan.notBefore,
      notAfter: null,
      publicJwk,
      encryptedPrivateKey: encryptSecret(privateKey, this.kek, plan.newKid),
      createdAt: now,
    };
    const retired = plan.retire.map((r) => r.kid);
    await this.table.retire(db, ownerId, retired, now);
    await this.table.insert(db, key);
    const recorder = this.options.recorder;
    let change: KeyChange<Sign> | undefined;
    if (recorder) {
      change = {
        ownerId,
        mode,
        first: records.length === 0,
        key,
        retired: records.filter((r) => retired.includes(r.kid)).map((r) => ({ ...r, notAfter: now })),
        open: (record) => this.open(record),
      };
      await recorder.record(db, change);
    }
    this.logger.info({ table: this.options.table, owner_id: ownerId, kid: key.kid, mode, retired }, 'signing key created');
    return { mode, key, retired, change };
  }
}

/** One owner's ring of a KeyStore: the same operations without the owner argument. */
export class KeyRing<Sign> {
  constructor(
    private readonly store: KeyStore<Sign>,
    readonly ownerId: string,
  ) {}

  records(): Promise<StoredKey[]> {
    return this.store.records(this.ownerId);
  }

  publishedRecords(): Promise<StoredKey[]> {
    return this.store.publishedRecords(this.ownerId);
  }

  published(): Promise<PublishedJwk[]> {
    return this.store.published(this.ownerId);
  }

  ensureCurrent(): Promise<{ key: StoredKey; created: boolean }> {
    return this.store.ensureCurrent(this.ownerId);
  }

  rotate(mode: RotationMode): Promise<RotationResult> {
    return this.store.rotate(this.ownerId, mode);
  }

  signer(at?: Date): Promise<SigningKey<Sign>> {
    return this.store.signer(this.ownerId, at);
  }

  checkCurrent(): Promise<string> {
    return this.store.checkCurrent(this.ownerId);
  }

  invalidate(): void {
    this.store.invalidate(this.ownerId);
  }
}

function asKek(value: Buffer | string): Buffer {
  return typeof value === 'string' ? parseKeyEncryptionKey(value) : value;
}
