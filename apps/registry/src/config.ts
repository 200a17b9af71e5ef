import { bool, int, loadConfig, str, url, type ConfigOf } from '@arbiter/config';

export const registryConfigSchema = {
  HOST: str({ default: '127.0.0.1' }),
  PORT: int({ default: 3001, min: 0, max: 65535 }),
  DATABASE_URL_REGISTRY: url({ protocols: ['postgres', 'postgresql'], secret: true, doc: 'PostgreSQL URL of the registry database' }),
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true }),
  INTERNAL_TOKEN: str({ secret: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  KEY_ENCRYPTION_KEY: str({ secret: true, optional: true, doc: 'base64 of 32 bytes; encrypts private keys at rest' }),
  BOOTSTRAP_ADMIN_KEY: str({ secret: true, optional: true, pattern: /^ak-[0-9a-f]{64}$/, doc: 'ak- followed by 64 hex characters' }),
  BODY_LIMIT: str({ default: '1mb' }),
  DB_POOL_SIZE: int({ default: 10, min: 1, max: 200 }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0 }),
  WEBHOOK_ALLOW_PRIVATE: bool({ default: false }),
  LOG_LEVEL: str({ default: 'info' }),
};

export type RegistryConfig = ConfigOf<typeof registryConfigSchema>;

export function loadRegistryConfig(env: NodeJS.ProcessEnv = process.env): RegistryConfig {
  return loadConfig(registryConfigSchema, env);
}
