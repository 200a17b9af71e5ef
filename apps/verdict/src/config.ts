import { archiveConfigSchema } from '@arbiter/archive';
import { bool, duration, int, loadConfig, str, url, type ConfigOf } from '@arbiter/config';

export const verdictConfigSchema = {
  HOST: str({ default: '127.0.0.1' }),
  PORT: int({ default: 3002, min: 0, max: 65535 }),
  DATABASE_URL_VERDICT: url({ protocols: ['postgres', 'postgresql'], secret: true, doc: 'PostgreSQL URL of the verdict database' }),
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true }),
  REGISTRY_URL: url({ protocols: ['http', 'https'], doc: "the registry's internal base URL" }),
  INTERNAL_TOKEN: str({ secret: true, pattern: /^.{16,}$/, doc: 'shared service token, at least 16 characters' }),
  INTERNAL_TOKEN_PREVIOUS: str({
    secret: true,
    optional: true,
    pattern: /^.{16,}$/,
    doc: 'during a rotation, a second token accepted on /internal/v1 (never sent)',
  }),
  // Verdicts are signed on every complete evaluation (docs/verdicts.md "Signing keys"): without it nothing can be answered.
  KEY_ENCRYPTION_KEY: str({ secret: true, doc: 'base64 of 32 bytes (or 64 hex digits); encrypts verdict signing keys at rest' }),
  KEY_ENCRYPTION_KEY_PREVIOUS: str({
    secret: true,
    optional: true,
    doc: 'during a rotation of KEY_ENCRYPTION_KEY, the previous key: opens keys the current one does not',
  }),
  /** `iss` of signed verdicts. */
  VERDICT_ISSUER: str({ default: 'arbiter-verdict' }),
  BODY_LIMIT: str({ default: '1mb' }),
  DB_POOL_SIZE: int({ default: 10, min: 1, max: 200 }),
  AUTH_CACHE_TTL_MS: int({ default: 30_000, min: 0, max: 30_000 }),
  /** How often the state hash of recently used tenants is polled (the fallback behind pub/sub). */
  SNAPSHOT_POLL_MS: int({ default: 2_000, min: 50, max: 600_000 }),
  /** A tenant unused for this long is dropped from memory (and no longer polled). */
  SNAPSHOT_IDLE_MS: int({ default: 600_000, min: 1_000 }),
  /** A snapshot not confirmed by the registry for this long is not used (503 policy_unavailable). */
  SNAPSHOT_MAX_STALE_MS: int({ default: 300_000, min: 1_000 }),
  /** An unfinished resolve session expires after this long without a round. */
  RESOLVE_SESSION_TTL_S: int({ default: 86_400, min: 60 }),
  /** An approval approved without a grant allows its operation once, within this long of the decision. */
  APPROVAL_VALIDITY_SECONDS: int({ default: 3_600, min: 1, max: 604_800 }),
  APPROVAL_GRANT_TTL_SECONDS: int({
    default: 3600,
    min: 60,
    doc: 'longest lifetime of the override a verdict approval grant creates: its default, and the latest expires_at a decision may name',
  }),
  APPROVAL_TTL_SECONDS: int({
    default: 86_400,
    min: 1,
    max: 31_536_000,
    doc: 'how long a pending approval waits before it expires when no triggering rule sets approval_expires_after',
  }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0 }),
  /** docs/verdicts.md "Evaluation budget": past it, check and resolve answer 503 evaluation_budget_exceeded. */
  EVALUATION_BUDGET_MS: int({
    default: 50,
    min: 1,
    max: 60_000,
    doc: 'longest the engine may run for one check, resolve, explanation or replayed consultation',
  }),
  /** docs/verdicts.md "Evaluation budget": the engine time of all the replays of one simulation. */
  SIMULATION_BUDGET_MS: int({ default: 30_000, min: 1, max: 3_600_000, doc: 'engine time one simulation may use for its replays' }),
  /** Each consultation and approval decision writes a seal_outbox row for the ledger (docs/operations.md "Seal relay"); false only for benchmarks. */
  /** The ledger's internal API: GET .../consultations/<id>/evidence reads the consultation's proof there, check and resolve verify ledger citations there. */
  LEDGER_URL: url({
    protocols: ['http', 'https'],
    optional: true,
    doc: "the ledger's internal base URL (evidence, ledger citations); unset: the evidence route and any ledger citation answer 503 ledger_unavailable",
  }),
  // docs/operations.md "Archive": archived consultations are read from there (unset: an archived consultation is not found).
  ...archiveConfigSchema,
  /** docs/verdicts.md "Windows and outcomes": a window read or take that waits or runs longer fails, and its rule fires (limit_unavailable). */
  WINDOW_TIMEOUT_MS: int({
    default: 2_000,
    min: 10,
    max: 60_000,
    doc: 'longest a budget or sequence rule may wait for its window (lock and statement timeout); past it the rule fires (limit_unavailable)',
  }),
  /** docs/operations.md "Windows": how often old window events are pruned. */
  WINDOW_PRUNE_INTERVAL_MS: int({
    default: 60_000,
    min: 1_000,
    max: 86_400_000,
    doc: 'how often the gateway prunes window events that left every window',
  }),
  LEDGER_SEALING: bool({ default: true, doc: 'write seal_outbox rows for the ledger; false only for benchmarks' }),
  /** docs/operations.md "Partitions": the width of a partition of consultations, resolve sessions and the seal outbox. */
  PARTITION_INTERVAL: duration({
    default: '1d',
    min: '1m',
    max: '31d',
    doc: 'width of a partition of the partitioned tables (consultations, resolve sessions, seal outbox), from 1m to 31d',
  }),
  LOG_LEVEL: str({ default: 'info' }),
};

export type VerdictConfig = ConfigOf<typeof verdictConfigSchema>;

export function loadVerdictConfig(env: NodeJS.ProcessEnv = process.env): VerdictConfig {
  return loadConfig(verdictConfigSchema, env);
}
