import { archiveConfigSchema } from '@arbiter/archive';
import { duration, int, loadConfig, oneOf, str, url, type ConfigOf } from '@arbiter/config';

export const workerConfigSchema = {
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true, doc: 'Redis holding the BullMQ queues' }),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, { default: 'info' }),
  WORKER_CONCURRENCY: int({ default: 10, min: 1, max: 1000, doc: 'jobs run at once per queue' }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0, doc: 'how long SIGTERM waits for running jobs' }),
  QUEUE_PREFIX: str({ default: 'arbiter', pattern: /^[A-Za-z0-9_-]+$/, doc: 'BullMQ key prefix; lets environments share one Redis' }),
  // The outbox relay and webhook delivery run through the registry's internal API (ADR 0005).
  REGISTRY_URL: url({ protocols: ['http', 'https'], doc: "the registry's internal API" }),
  INTERNAL_TOKEN: str({ secret: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  // The services nudge the relays over Redis after each commit (libs/queue "nudge"); this poll only catches what a lost
  // nudge left behind, webhook retries falling due and seal leases running out.
  RELAY_INTERVAL_MS: int({ default: 10_000, min: 10, max: 60_000, doc: 'fallback poll of the relays when no nudge arrives' }),
  RELAY_BATCH_SIZE: int({ default: 100, min: 1, max: 1000, doc: 'outbox rows and due deliveries taken per relay pass' }),
  // The seal relay (docs/operations.md "Seal relay"): seal_outbox rows of the verdict gateway and the
  // registry, sealed in the ledger through its internal API, one ledger.v1.seal job per batch.
  VERDICT_URL: url({ protocols: ['http', 'https'], doc: "the verdict gateway's internal API (seal outbox)" }),
  LEDGER_URL: url({ protocols: ['http', 'https'], doc: "the ledger's internal API (service seals)" }),
  // docs/operations.md "Archive": where the maintenance job writes segments (unset: archived kinds are never dropped).
  ...archiveConfigSchema,
  SEAL_BATCH_SIZE: int({ default: 1000, min: 1, max: 1000, doc: 'seal_outbox rows leased per owner and relay pass: one ledger request' }),
  SEAL_GATHER_MS: int({
    default: 500,
    min: 0,
    max: 10_000,
    doc: 'least time between two nudged seal relay passes: rows committed meanwhile go in one batch',
  }),
  SEAL_LEASE_MS: int({ default: 60_000, min: 1000, max: 3_600_000, doc: 'how long leased seal_outbox rows are not handed out again' }),
  LEDGER_TIMEOUT_MS: int({ default: 30_000, min: 100, doc: 'how long a seal request to the ledger (and a seal outbox call) may take' }),
  // Optional ops endpoint (/livez, /readyz, /metrics) for orchestrators and Prometheus; unset = none.
  METRICS_PORT: int({ optional: true, min: 0, max: 65535, doc: 'port of the /livez, /readyz and /metrics endpoint' }),
  HOST: str({ default: '127.0.0.1', doc: 'listen address of the ops endpoint' }),
  REGISTRY_TIMEOUT_MS: int({
    default: 30_000,
    min: 100,
    doc: "how long a call to the registry may take; above the registry's WEBHOOK_TIMEOUT_MS",
  }),
  // docs/operations.md "Partitions": maintenance.v1.run creates partitions ahead and removes past ones.
  MAINTENANCE_INTERVAL: duration({
    default: '1h',
    min: '1s',
    doc: 'how often the maintenance job runs (partitions ahead, past ones archived and dropped)',
  }),
};

export type WorkerConfig = ConfigOf<typeof workerConfigSchema>;

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return loadConfig(workerConfigSchema, env);
}
