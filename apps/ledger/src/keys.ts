import { bytesToBase64, type RotationMode } from '@arbiter/crypto';
import { ed25519Keys, KeyStore, type KeyChangeRecorder, type KeyRing, type SqlPool } from '@arbiter/keystore';
import { transitionSigningInput, unsignedKeyTransition } from './domain/key-transition';
import type { KeyRotation, LedgerKeySet } from './models/ledger';
import { KeyTransitionsRepository } from './repositories/key-transitions.repository';

/**
 * The ledger's Ed25519 bundle-signing ring (docs/ledger-formats.md): owner `ledger` in signing_keys, kept by
 * @arbiter/keystore. It never rotates by itself (an operator's yearly job does); every bundle reads the
 * current key, so a rotation by another replica or the CLI shows at the next bundle.
 */
export const LEDGER_KEY_OWNER = 'ledger';

export type LedgerKeys = KeyRing<(message: string | Uint8Array) => Uint8Array>;
export type LedgerKeyStore = KeyStore<(message: string | Uint8Array) => Uint8Array>;

type Sign = (message: string | Uint8Array) => Uint8Array;

/**
 * Every rotation of the ring writes its transition statement in the same transaction (docs/ledger-formats.md
 * "Key transitions"): signed by each retired key the ledger can still open, then by the new key. A retired
 * key that no longer opens (its KEY_ENCRYPTION_KEY gone) signs nothing: the statement then extends no
 * verifier's trust, and auditors take the new key out of band. The ring's first key has no statement.
 */
export const keyTransitionRecorder: KeyChangeRecorder<Sign> = {
  async record(db, change) {
    if (change.first) return;
    const unsigned = unsignedKeyTransition({
      mode: change.mode,
      at: change.key.notBefore,
      key: { kid: change.key.kid, x: String(change.key.publicJwk.x) },
      retired: change.retired.map((r) => r.kid),
    });
    const input = transitionSigningInput(unsigned);
    const signatures: { key_id: string; signature: string }[] = [];
    for (const record of [...change.retired, change.key]) {
      let sign: Sign;
      try {
        sign = change.open(record);
      } catch {
        continue;
      }
      signatures.push({ key_id: record.kid, signature: bytesToBase64(sign(input)) });
    }
    await KeyTransitionsRepository.insert(db, { ...unsigned, signatures });
  },
};

/** The ledger's key store: KEY_ENCRYPTION_KEY, and KEY_ENCRYPTION_KEY_PREVIOUS during its rotation. */
export function createLedgerKeyStore(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): LedgerKeyStore {
  return new KeyStore({
    pool,
    table: 'signing_keys',
    type: ed25519Keys,
    keyEncryptionKey,
    previousKeyEncryptionKey,
    recorder: keyTransitionRecorder,
  });
}

export function createLedgerKeys(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): LedgerKeys {
  return createLedgerKeyStore(pool, keyEncryptionKey, previousKeyEncryptionKey).ring(LEDGER_KEY_OWNER);
}

/** POST /admin/signing-keys/rotate and `ledger-cli keys rotate`; a scheduled rotation not due throws CryptoError rotation_not_due. */
export async function rotateLedgerKey(keys: LedgerKeys, mode: RotationMode): Promise<KeyRotation> {
  const { key, retired } = await keys.rotate(mode);
  return { mode, key_id: key.kid, retired, keys: await keys.published() };
}

/** GET /.well-known/ledger-keys (and its internal twin): every key with its window, and every rotation's statement. */
export async function publishedKeySet(keys: LedgerKeys, transitions: KeyTransitionsRepository): Promise<LedgerKeySet> {
  const [published, statements] = await Promise.all([keys.published(), transitions.list()]);
  return { keys: published, transitions: statements };
}
