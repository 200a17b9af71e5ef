import type { RotationMode } from '@arbiter/crypto';
import { ed25519Keys, KeyStore, type KeyRing, type SqlPool } from '@arbiter/keystore';
import type { KeyRotation } from './models/ledger';

/**
 * The ledger's Ed25519 bundle-signing ring (docs/ledger-formats.md): owner `ledger` in signing_keys, kept by
 * @arbiter/keystore. It never rotates by itself (an operator's yearly job does); every bundle reads the
 * current key, so a rotation by another replica or the CLI shows at the next bundle.
 */
export const LEDGER_KEY_OWNER = 'ledger';

export type LedgerKeys = KeyRing<(message: string | Uint8Array) => Uint8Array>;
export type LedgerKeyStore = KeyStore<(message: string | Uint8Array) => Uint8Array>;

/** The ledger's key store: KEY_ENCRYPTION_KEY, and KEY_ENCRYPTION_KEY_PREVIOUS during its rotation. */
export function createLedgerKeyStore(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): LedgerKeyStore {
  return new KeyStore({ pool, table: 'signing_keys', type: ed25519Keys, keyEncryptionKey, previousKeyEncryptionKey });
}

export function createLedgerKeys(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): LedgerKeys {
  return createLedgerKeyStore(pool, keyEncryptionKey, previousKeyEncryptionKey).ring(LEDGER_KEY_OWNER);
}

/** POST /admin/signing-keys/rotate and `ledger-cli keys rotate`; a scheduled rotation not due throws CryptoError rotation_not_due. */
export async function rotateLedgerKey(keys: LedgerKeys, mode: RotationMode): Promise<KeyRotation> {
  const { key, retired } = await keys.rotate(mode);
  return { mode, key_id: key.kid, retired, keys: await keys.published() };
}
