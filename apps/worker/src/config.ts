import { bool, int, loadConfig, oneOf, str, url, type ConfigOf } from '@arbiter/config';

export const workerConfigSchema = {
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true, doc: 'Redis holding the BullMQ queues' }),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, { default: 'info' }),
  WORKER_CONCURRENCY: int({ default: 10, min: 1, max: 1000, doc: 'jobs run at once per queue' }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0, doc: 'how long SIGTERM waits for running jobs' }),
  QUEUE_PREFIX: str({ default: 'arbiter', pattern: /^[A-Za-z0-9_-]+$/, doc: 'BullMQ key prefix; lets environments share one Redis' }),
  // Used by the jobs later issues add (outbox relay, webhook delivery, approval routing):
  REGISTRY_URL: url({ protocols: ['http', 'https'], optional: true, doc: "the registry's internal API" }),
  INTERNAL_TOKEN: str({ secret: true, optional: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  WEBHOOK_ALLOW_PRIVATE: bool({ default: false, doc: 'deliver webhooks to private and loopback addresses (tests, embedded default)' }),
};

export type WorkerConfig = ConfigOf<typeof workerConfigSchema>;

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return loadConfig(workerConfigSchema, env);
}
