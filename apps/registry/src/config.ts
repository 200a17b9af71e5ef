import { bool, duration, int, loadConfig, ConfigError, str, url, type ConfigOf, type FieldSpec } from '@arbiter/config';
import { parseKeyEncryptionKey } from '@arbiter/crypto';

/** KEY_ENCRYPTION_KEY as the 32 key bytes; a bad or missing value stops the start naming the variable. */
const keyEncryptionKey: FieldSpec<Buffer> = {
  secret: true,
  doc: 'base64 of 32 bytes (or 64 hex digits); encrypts the webhook signing keys and the webhook secrets of subscriptions at rest',
  parse: (raw) => parseKeyEncryptionKey(raw),
};

export const registryConfigSchema = {
  HOST: str({ default: '127.0.0.1' }),
  PORT: int({ default: 3001, min: 0, max: 65535 }),
  DATABASE_URL_REGISTRY: url({ protocols: ['postgres', 'postgresql'], secret: true, doc: 'PostgreSQL URL of the registry database' }),
  REDIS_URL: url({ protocols: ['redis', 'rediss'], secret: true }),
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
  BOOTSTRAP_ADMIN_KEY: str({ secret: true, optional: true, pattern: /^ak-[0-9a-f]{64}$/, doc: 'ak- followed by 64 hex characters' }),
  BODY_LIMIT: str({ default: '1mb' }),
  DB_POOL_SIZE: int({ default: 10, min: 1, max: 200 }),
  SHUTDOWN_GRACE_MS: int({ default: 10_000, min: 0 }),
  LOG_LEVEL: str({ default: 'info' }),
  /** docs/registry.md "Compliance check: how relevance is decided": past it, the check answers 503. */
  COMPLIANCE_BUDGET_MS: int({
    default: 1_000,
    min: 1,
    max: 60_000,
    doc: "longest the compliance check may spend matching a scope's rules",
  }),
  /**
   * docs/registry.md "Limits": what a tenant's active rules may hold together (their current versions as JSON); every
   * verdict gateway compiles them all into one snapshot on each change, on the event loop that serves every tenant.
   */
  TENANT_RULES_MAX_BYTES: int({
    default: 8 * 1024 * 1024,
    min: 65_536,
    max: 1_073_741_824,
    doc: "most bytes a tenant's active rules may hold together (current versions as JSON)",
  }),
  /**
   * Likewise for overrides: every gateway compiles each effective override's conditions into the tenant's snapshot on
   * each change, and a key that may manage invariants in one scope can make any number of them.
   */
  TENANT_OVERRIDES_MAX_BYTES: int({
    default: 8 * 1024 * 1024,
    min: 65_536,
    max: 1_073_741_824,
    doc: "most bytes a tenant's effective overrides may hold together (their rows as JSON)",
  }),
  // Webhooks (docs/webhooks.md, docs/approvals.md).
  WEBHOOK_ALLOW_PRIVATE: bool({
    default: false,
    doc: 'allow webhook destinations that are not public unicast addresses (private, loopback, link-local, NAT64, 6to4, …): tests, embedded default',
  }),
  // At least 8 attempts (docs/approvals.md): fewer would give up on a receiver within minutes.
  WEBHOOK_MAX_ATTEMPTS: int({ default: 8, min: 8, max: 50, doc: 'attempts per delivery before it fails for good (8 to 50)' }),
  WEBHOOK_RETRY_BASE_MS: int({ default: 120_000, min: 0, doc: 'wait after the first failed attempt; doubles after each further one' }),
  WEBHOOK_RETRY_MAX_DELAY_MS: int({ default: 6 * 3600_000, min: 0, doc: 'cap of one wait between attempts' }),
  WEBHOOK_TIMEOUT_MS: int({ default: 10_000, min: 100, max: 120_000, doc: 'how long one attempt waits for the receiver' }),
  WEBHOOK_MAX_CONSECUTIVE_FAILURES: int({ default: 20, min: 1, doc: 'failed attempts in a row that disable a subscription' }),
  WEBHOOK_DISPATCH_LEASE_MS: int({ default: 60_000, min: 100, doc: 'how long a delivery handed to the queue is not handed out again' }),
  WEBHOOK_SECRET_OVERLAP_SECONDS: int({
    default: 86_400,
    min: 0,
    max: 604_800,
    doc: 'how long a rotated-out Standard Webhooks secret still signs deliveries, beside the new one (default 24 h, at most 7 days)',
  }),
  // Approval notifications (docs/approvals.md "Notifications"): the registry routes and sends them, the worker schedules.
  SMTP_URL: url({
    protocols: ['smtp', 'smtps'],
    optional: true,
    secret: true,
    doc: 'SMTP server that sends approval notification emails (smtp://host:port, smtps://user:pass@host); unset: no email',
  }),
  SMTP_FROM: str({ default: 'Arbiter <arbiter@localhost>', doc: 'From address of approval notification emails' }),
  CONSOLE_URL: url({
    protocols: ['http', 'https'],
    optional: true,
    doc: "base of the console links in notifications; default: REGISTRY_PUBLIC_URL/console, else the registry's own address (http://HOST:PORT/console)",
  }),
  APPROVAL_GRANT_TTL_SECONDS: int({
    default: 3600,
    min: 60,
    doc: 'longest lifetime of the override a registry approval creates: its default, and the latest expires_at a decision may name',
  }),
  APPROVAL_TTL_SECONDS: int({
    default: 86_400,
    min: 1,
    max: 31_536_000,
    doc: 'how long a pending approval waits before it expires when no triggering rule sets approval_expires_after',
  }),
  // Each rule version and approval decision writes a seal_outbox row for the ledger (docs/operations.md "Seal relay").
  LEDGER_SEALING: bool({ default: true, doc: 'write seal_outbox rows for the ledger; false only for benchmarks' }),
  // GET /api/v1/rules/{rule_id}/shadow asks the verdict gateway's internal API (docs/verdicts.md "Shadow rules").
  VERDICT_URL: url({
    protocols: ['http', 'https'],
    optional: true,
    doc: "the verdict gateway's internal base URL (shadow rule disagreements); unset: GET /api/v1/rules/{rule_id}/shadow answers 503",
  }),
  // The console (docs/identity.md "Console sign-in", docs/operations.md "The console").
  REGISTRY_PUBLIC_URL: url({
    protocols: ['http', 'https'],
    optional: true,
    doc: 'the base URL browsers reach the registry at (console links, the OIDC redirect URI <base>/console/auth/callback); unset: http://127.0.0.1:<port the request came in on>',
  }),
  OIDC_ISSUER: url({
    protocols: ['http', 'https'],
    optional: true,
    doc: "the console's OpenID Connect issuer (https; http only on a loopback host); unset: sign-in by one-time links only",
  }),
  OIDC_CLIENT_ID: str({ optional: true, doc: "the console's client id at OIDC_ISSUER (required with it)" }),
  OIDC_CLIENT_SECRET: str({
    secret: true,
    optional: true,
    doc: 'the client secret (client_secret_basic); unset: a public client, authorization code with PKCE alone',
  }),
  CONSOLE_SESSION_TTL_SECONDS: int({
    default: 28_800,
    min: 300,
    max: 86_400,
    doc: 'absolute lifetime of a console session (default 8 h); signing out or deactivating the principal ends it sooner',
  }),
  // docs/operations.md "Partitions" and "Retention".
  PARTITION_INTERVAL: duration({
    default: '1d',
    min: '1m',
    max: '31d',
    doc: 'width of a partition of the partitioned tables (events, webhook deliveries and attempts, seal outbox), from 1m to 31d',
  }),
  RETENTION_MIN: duration({ default: '1d', min: '1m', doc: "shortest retention a tenant's settings.retention may name" }),
  RETENTION_MAX: duration({ default: '3650d', min: '1m', doc: "longest retention a tenant's settings.retention may name" }),
  PRUNE_INTERVAL_MS: int({
    default: 600_000,
    min: 1_000,
    max: 86_400_000,
    doc: 'how often the registry deletes approval notifications past their retention and expired console links and sessions',
  }),
};

export type RegistryConfig = ConfigOf<typeof registryConfigSchema>;

export function loadRegistryConfig(env: NodeJS.ProcessEnv = process.env): RegistryConfig {
  const config = loadConfig(registryConfigSchema, env);
  if (config.RETENTION_MIN > config.RETENTION_MAX) throw new ConfigError(['RETENTION_MIN must not be above RETENTION_MAX']);
  return config;
}
