import { ConfigError } from '@arbiter/config';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { loadRegistryConfig } from './config';

const base = {
  DATABASE_URL_REGISTRY: 'postgres://u:p@127.0.0.1:5432/arbiter_registry',
  REDIS_URL: 'redis://127.0.0.1:6379',
  INTERNAL_TOKEN: 'a-token-of-16-chars',
};

describe(loadRegistryConfig.name, () => {
  it('requires KEY_ENCRYPTION_KEY and reads it as 32 bytes', () => {
    expect(() => loadRegistryConfig(base)).toThrow(/KEY_ENCRYPTION_KEY is required/);
    expect(() => loadRegistryConfig({ ...base, KEY_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(ConfigError);
    expect(loadRegistryConfig({ ...base, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() }).KEY_ENCRYPTION_KEY).toHaveLength(32);
  });

  it('applies the defaults: 8 webhook attempts doubling from 2 minutes, disabled after 20 failures, private targets refused, 1 h approval grants', () => {
    expect(loadRegistryConfig({ ...base, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() })).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_MAX_ATTEMPTS: 8,
      WEBHOOK_RETRY_BASE_MS: 120_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_MAX_CONSECUTIVE_FAILURES: 20,
      APPROVAL_GRANT_TTL_SECONDS: 3600,
    });
  });

  it('refuses fewer than 8 webhook attempts, naming WEBHOOK_MAX_ATTEMPTS', () => {
    const env = { ...base, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() };

    expect(() => loadRegistryConfig({ ...env, WEBHOOK_MAX_ATTEMPTS: '7' })).toThrow(/WEBHOOK_MAX_ATTEMPTS must be at least 8/);
    expect(() => loadRegistryConfig({ ...env, WEBHOOK_MAX_ATTEMPTS: '0' })).toThrow(/WEBHOOK_MAX_ATTEMPTS must be at least 8/);
    expect(loadRegistryConfig({ ...env, WEBHOOK_MAX_ATTEMPTS: '8' }).WEBHOOK_MAX_ATTEMPTS).toBe(8);
  });

  it('reads APPROVAL_GRANT_TTL_SECONDS as a whole number of at least 60 seconds', () => {
    const env = { ...base, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() };

    expect(loadRegistryConfig({ ...env, APPROVAL_GRANT_TTL_SECONDS: '600' }).APPROVAL_GRANT_TTL_SECONDS).toBe(600);
    expect(() => loadRegistryConfig({ ...env, APPROVAL_GRANT_TTL_SECONDS: '59' })).toThrow(
      /APPROVAL_GRANT_TTL_SECONDS must be at least 60/,
    );
  });

  it('reads the approval notification settings: email off without SMTP_URL, an SMTP URL only, CONSOLE_URL an http(s) URL', () => {
    const env = { ...base, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() };

    expect(loadRegistryConfig(env)).toMatchObject({
      SMTP_URL: undefined,
      SMTP_FROM: 'Arbiter <arbiter@localhost>',
      CONSOLE_URL: undefined,
    });
    expect(loadRegistryConfig({ ...env, SMTP_URL: 'smtp://127.0.0.1:2525', CONSOLE_URL: 'https://arbiter.example/console' })).toMatchObject(
      {
        SMTP_URL: 'smtp://127.0.0.1:2525',
        CONSOLE_URL: 'https://arbiter.example/console',
      },
    );
    expect(() => loadRegistryConfig({ ...env, SMTP_URL: 'http://127.0.0.1:2525' })).toThrow(/SMTP_URL/);
    expect(() => loadRegistryConfig({ ...env, CONSOLE_URL: 'javascript:alert(1)' })).toThrow(/CONSOLE_URL/);
  });
});
