import {
  CryptoError,
  currentKey,
  decryptSecret,
  ed25519PublicKeyToJwk,
  ed25519Sign,
  encryptSecret,
  generateEd25519KeyPair,
  planRotation,
  toPublicJwk,
  type KeyRecord,
  type RotationMode,
} from '@arbiter/crypto';
import type { PrismaClient } from '../generated/prisma/client';
import { LEDGER_KEY_OWNER, SigningKeysRepository } from '../repositories/signing-keys.repository';
import type { KeyRotation, LedgerPublicKey } from '../models/ledger';

export interface BundleSigner {
  kid: string;
  /** A bundle must not claim a creation time before its key's not_before. */
  notBeforeMs: number;
  sign(message: string): Uint8Array;
}

/**
 * The ledger's Ed25519 key ring (no HTTP in here: the CLI uses it too) (docs/ledger-formats.md): private halves encrypted at rest under
 * KEY_ENCRYPTION_KEY with the kid as AAD, rotation by epoch through @arbiter/crypto's planRotation,
 * retired keys kept and published forever so every bundle stays verifiable.
 */
export class SigningKeysService {
  private readonly privateKeys = new Map<string, Uint8Array>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly kek: Buffer,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async published(): Promise<LedgerPublicKey[]> {
    return (await new SigningKeysRepository(this.prisma).all()).map(toPublicJwk);
  }

  /**
   * Makes sure a key is current, creating this year's key when none is (first start, or every key
   * retired). Replicas starting together serialise on the key-ring lock, and read the clock and the
   * ring only once they hold it: only one creates the key.
   */
  async ensureCurrent(): Promise<KeyRecord> {
    const existing = signingKey(await new SigningKeysRepository(this.prisma).all(), this.clock());
    if (existing) return existing;
    return SigningKeysRepository.locked(this.prisma, async (repo) => {
      const now = this.clock();
      const records = await repo.all();
      const current = signingKey(records, now);
      if (current) return current;
      let mode: RotationMode = 'scheduled';
      try {
        planRotation(records, { ownerId: LEDGER_KEY_OWNER, now, mode });
      } catch (err) {
        if (!(err instanceof CryptoError) || err.code !== 'rotation_not_due') throw err;
        mode = 'emergency';
      }
      return (await this.applyRotation(repo, records, mode, now)).record;
    });
  }

  async rotate(mode: RotationMode): Promise<KeyRotation> {
    // planRotation refuses a scheduled rotation when this year's key exists: CryptoError rotation_not_due.
    const { record, retired } = await SigningKeysRepository.locked(this.prisma, async (repo) => this.applyRotation(repo, await repo.all(), mode, this.clock()));
    return { mode, key_id: record.kid, retired, keys: await this.published() };
  }

  /** The signer for a bundle made at `at`, its private key decrypted once per process. */
  async signerAt(at: Date): Promise<BundleSigner> {
    const record = signingKey(await new SigningKeysRepository(this.prisma).all(), at) ?? (await this.ensureCurrent());
    const privateKey = this.privateKeyOf(record);
    return { kid: record.kid, notBeforeMs: record.notBefore.getTime(), sign: (message) => ed25519Sign(message, privateKey) };
  }

  /** Decrypts the current key (startup and health: a wrong KEY_ENCRYPTION_KEY shows at once). */
  async checkCurrent(): Promise<string> {
    const record = await this.ensureCurrent();
    this.privateKeyOf(record);
    return record.kid;
  }

  private privateKeyOf(record: KeyRecord): Uint8Array {
    let key = this.privateKeys.get(record.kid);
    if (!key) {
      key = new Uint8Array(decryptSecret(record.encryptedPrivateKey, this.kek, record.kid));
      this.privateKeys.set(record.kid, key);
    }
    return key;
  }

  private async applyRotation(repo: SigningKeysRepository, records: KeyRecord[], mode: RotationMode, now: Date) {
    const plan = planRotation(records, { ownerId: LEDGER_KEY_OWNER, now, mode });
    const pair = generateEd25519KeyPair();
    const record: KeyRecord = {
      kid: plan.newKid,
      ownerId: LEDGER_KEY_OWNER,
      epoch: plan.newEpoch,
      notBefore: plan.notBefore,
      notAfter: null,
      publicJwk: ed25519PublicKeyToJwk(pair.publicKey),
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
 * The key to sign with at `at`: the one valid then, else the open-ended one. The second case is a
 * replica whose clock is behind the one that made the key: it must not mint a key of its own.
 */
function signingKey(records: KeyRecord[], at: Date): KeyRecord | null {
  const open = records.filter((r) => r.notAfter === null).sort((a, b) => b.notBefore.getTime() - a.notBefore.getTime());
  return currentKey(records, at) ?? open[0] ?? null;
}
