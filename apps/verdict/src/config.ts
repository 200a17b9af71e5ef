import { int, loadConfig, str, url, type ConfigOf } from '@arbiter/config';

export const verdictConfigSchema = {
  HOST: str({ default: '127.0.0.1' }),
  PORT: int({ default: 3002, min: 0, max: 65535 }),
  DATABASE_URL_VERDICT: url({ protocols: ['postgres', 'postgresql'], secret: true, doc: 'PostgreSQL URL of the verdict database' }),
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true }),
  REGISTRY_URL: url({ protocols: ['http', 'https'], doc: "the registry's internal base URL" }),
  INTERNAL_TOKEN: str({ secret: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  KEY_ENCRYPTION_KEY: str({ secret: true, optional: true, doc: 'base64 of 32 bytes; encrypts private keys at rest' }),
  BODY_LIMIT: str({ default: '1mb' }),
  DB_POOL_SIZE: int({ default: 10, min: 1, max: 200 }),
  AUTH_CACHE_TTL_MS: int({ default: 30_000, min: 0, max: 30_000 }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0 }),
  LOG_LEVEL: str({ default: 'info' }),
};

export type VerdictConfig = ConfigOf<typeof verdictConfigSchema>;

export function loadVerdictConfig(env: NodeJS.ProcessEnv = process.env): VerdictConfig {
  return loadConfig(verdictConfigSchema, env);
}
