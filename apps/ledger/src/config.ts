import { int, loadConfig, str, url, type ConfigOf, type FieldSpec } from '@arbiter/config';
import { parseKeyEncryptionKey } from '@arbiter/crypto';

/** KEY_ENCRYPTION_KEY as the 32 key bytes; a bad value stops the start naming the variable. */
const keyEncryptionKey: FieldSpec<Buffer> = {
  secret: true,
  doc: 'base64 of 32 bytes; encrypts the bundle signing keys at rest',
  parse: (raw) => parseKeyEncryptionKey(raw),
};

export const ledgerConfigSchema = {
  HOST: str({ default: '127.0.0.1' }),
  PORT: int({ default: 3003, min: 0, max: 65535 }),
  DATABASE_URL_LEDGER: url({ protocols: ['postgres', 'postgresql'], secret: true, doc: 'PostgreSQL URL of the ledger database' }),
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true }),
  REGISTRY_URL: url({ protocols: ['http', 'https'], doc: "the registry's internal base URL" }),
  INTERNAL_TOKEN: str({ secret: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  INTERNAL_TOKEN_PREVIOUS: str({
    secret: true,
    optional: true,
    pattern: /^.{16,}$/,
    doc: 'during a rotation, a second token accepted on /internal/v1 (never sent)',
  }),
  KEY_ENCRYPTION_KEY: keyEncryptionKey,
  KEY_ENCRYPTION_KEY_PREVIOUS: {
    ...keyEncryptionKey,
    optional: true as const,
    doc: 'during a rotation of KEY_ENCRYPTION_KEY, the previous key: opens keys the current one does not',
  },
  BODY_LIMIT: str({ default: '1mb' }),
  DB_POOL_SIZE: int({ default: 10, min: 1, max: 200 }),
  AUTH_CACHE_TTL_MS: int({ default: 30_000, min: 0, max: 30_000 }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0 }),
  LOG_LEVEL: str({ default: 'info' }),
  /** The standard tier (docs/ledger-formats.md "Limits"); a tenant's settings.rate_limit overrides both (enterprise). */
  RATE_LIMIT_PER_MINUTE: int({ default: 1000, min: 1 }),
  RATE_LIMIT_BURST: int({ default: 100, min: 1 }),
  /** How long a rate-limit decision may wait for Redis before the per-replica fallback decides. */
  RATE_LIMIT_REDIS_TIMEOUT_MS: int({ default: 250, min: 1 }),
  /**
   * Most seals committed in one statement, over all its streams (group commit). One stream is in one
   * statement at a time, so this bounds a hot stream's rate: 1000 lets a relay batch of audit facts
   * commit at once (docs/benchmarks.md "Ledger": 256 gave a third of the rate into one stream).
   */
  SEAL_BATCH_MAX: int({ default: 1000, min: 1, max: 5000 }),
  /** Seal statements in flight at once; each holds a pool connection while it runs. */
  SEAL_CONCURRENCY: int({ default: 4, min: 1, max: 64 }),
  /** Facts read per page when verifying or bundling a stream. */
  VERIFY_PAGE_SIZE: int({ default: 2000, min: 1, max: 50_000 }),
};

export type LedgerConfig = ConfigOf<typeof ledgerConfigSchema>;

export function loadLedgerConfig(env: NodeJS.ProcessEnv = process.env): LedgerConfig {
  return loadConfig(ledgerConfigSchema, env);
}
