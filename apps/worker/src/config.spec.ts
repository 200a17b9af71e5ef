import { ConfigError } from '@arbiter/config';
import { loadWorkerConfig } from './config';

const required = {
  REDIS_URL: 'redis://127.0.0.1:6379',
  REGISTRY_URL: 'http://127.0.0.1:3001',
  VERDICT_URL: 'http://127.0.0.1:3002',
  LEDGER_URL: 'http://127.0.0.1:3003',
  INTERNAL_TOKEN: 'a-token-of-16-chars',
};

describe(loadWorkerConfig.name, () => {
  it('applies the defaults', () => {
    expect(loadWorkerConfig(required)).toMatchObject({
      LOG_LEVEL: 'info',
      WORKER_CONCURRENCY: 10,
      SHUTDOWN_GRACE_MS: 10_000,
      QUEUE_PREFIX: 'arbiter',
      RELAY_INTERVAL_MS: 10_000,
      RELAY_BATCH_SIZE: 100,
      REGISTRY_TIMEOUT_MS: 30_000,
      SEAL_BATCH_SIZE: 1000,
      SEAL_GATHER_MS: 500,
      SEAL_LEASE_MS: 60_000,
      LEDGER_TIMEOUT_MS: 30_000,
    });
  });

  it('names a missing REDIS_URL, REGISTRY_URL and INTERNAL_TOKEN, and a bad concurrency', () => {
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(
      /REDIS_URL is required[\s\S]*WORKER_CONCURRENCY must be at least 1[\s\S]*REGISTRY_URL is required[\s\S]*INTERNAL_TOKEN is required/,
    );
  });

  it('names a missing VERDICT_URL and LEDGER_URL (the seal relay)', () => {
    const { VERDICT_URL: _v, LEDGER_URL: _l, ...rest } = required;
    expect(() => loadWorkerConfig(rest)).toThrow(/VERDICT_URL is required[\s\S]*LEDGER_URL is required/);
  });
});
