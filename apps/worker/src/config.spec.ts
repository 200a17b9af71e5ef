import { ConfigError } from '@arbiter/config';
import { loadWorkerConfig } from './config';

describe(loadWorkerConfig.name, () => {
  it('applies the defaults', () => {
    expect(loadWorkerConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      LOG_LEVEL: 'info',
      WORKER_CONCURRENCY: 10,
      SHUTDOWN_GRACE_MS: 10_000,
      QUEUE_PREFIX: 'arbiter',
      WEBHOOK_ALLOW_PRIVATE: false,
      REGISTRY_URL: undefined,
    });
  });

  it('names a missing REDIS_URL and a bad concurrency', () => {
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/REDIS_URL is required[\s\S]*WORKER_CONCURRENCY must be at least 1/);
  });
});
