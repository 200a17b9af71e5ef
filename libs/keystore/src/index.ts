export {
  KeyRing,
  KeyStore,
  type KeyChange,
  type KeyChangeRecorder,
  type KeyStoreLogger,
  type KeyStoreOptions,
  type ReencryptionResult,
  type RotationResult,
  type SigningKey,
} from './key-store';
export type { SqlClient, SqlPool, StoredKey } from './key-table';
export { ed25519Keys, es256JwsKeys, p256HexKeys, type KeyType } from './key-types';
