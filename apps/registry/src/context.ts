import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { REGISTRY_SEAL_ACTOR } from '@arbiter/audit-streams';
import { Authenticator } from '@arbiter/auth';
import {
  ArchiveSegmentStore,
  BatchPruner,
  createPool,
  createPrismaClient,
  migrationsDir,
  PartitionMaintenance,
  SealOutboxStore,
} from '@arbiter/db';
import { PrismaClient } from './generated/prisma/client';
import type { RegistryConfig } from './config';
import { createRegistryMetrics, type RegistryMetrics } from './metrics';
import { registryAuthErrors } from './domain/errors';
import { IdentityRepository } from './repositories/identity.repository';
import { IdentityService } from './services/identity.service';
import { IntrospectionService } from './services/introspection.service';
import { ChangeWriter, repositories } from './services/changes.service';
import { ScopeAccess } from './services/scope-access.service';
import { ScopesService } from './services/scopes.service';
import { EntriesService } from './services/entries.service';
import { RulesService } from './services/rules.service';
import { RuleShadowService } from './services/rule-shadow.service';
import { VerdictInternalClient } from '@arbiter/internal-api';
import { OverridesService } from './services/overrides.service';
import { LinksService } from './services/links.service';
import { ReferencesService } from './services/references.service';
import { SearchService } from './services/search.service';
import { ComplianceService } from './services/compliance.service';
import { ResolveService } from './services/resolve.service';
import { EventsService } from './services/events.service';
import { StateService } from './services/state.service';
import { ApprovalsService } from './services/approvals.service';
import { WebhooksService } from './services/webhooks.service';
import { WebhookSender } from './clients/webhook-sender';
import { resolveWebhookTarget, systemResolver, type HostResolver } from './clients/webhook-target';
import { WebhookDeliveryService } from './services/webhook-delivery.service';
import { OutboxRelayService } from './services/outbox-relay.service';
import { TenantEventsService } from './services/tenant-events.service';
import { createWebhookKeys, type WebhookKeys } from './keys';
import { ApprovalNotifier } from './services/approval-notifier.service';
import { createSmtpMailer } from './clients/approval-mailer';
import { ConsoleRepository } from './repositories/console.repository';
import { ConsoleService } from './services/console.service';
import { OidcClient, oidcSettings } from './clients/oidc';
import { RetentionService } from './services/retention.service';
import { registryPartitions } from './partitions';
import { SpentRowsRepository } from './repositories/spent-rows.repository';

/** Everything a request needs, made once per process (or per test app). */
export interface RegistryContext {
  config: RegistryConfig;
  metrics: RegistryMetrics;
  logger: Logger;
  pool: Pool;
  prisma: PrismaClient;
  redis: Redis;
  authenticator: Authenticator;
  identity: IdentityService;
  introspection: IntrospectionService;
  /** The console's sign-in and sessions (docs/identity.md "Console sign-in"). */
  console: ConsoleService;
  /** The registry API (docs/registry.md). */
  scopes: ScopesService;
  entries: EntriesService;
  rules: RulesService;
  /** Shadow rule disagreements, asked of the verdict gateway (VERDICT_URL; docs/verdicts.md "Shadow rules"). */
  ruleShadow: RuleShadowService;
  overrides: OverridesService;
  references: ReferencesService;
  links: LinksService;
  search: SearchService;
  compliance: ComplianceService;
  resolve: ResolveService;
  events: EventsService;
  /** Registry approvals and webhooks (docs/approvals.md, docs/webhooks.md). */
  approvals: ApprovalsService;
  webhooks: WebhooksService;
  keys: WebhookKeys;
  /** Internal API of the worker: the outbox relay and one delivery attempt at a time (ADR 0005). */
  relay: OutboxRelayService;
  deliveries: WebhookDeliveryService;
  /** Approval notifications: routed with the events, sent one attempt at a time (docs/approvals.md "Notifications"). */
  notifier: ApprovalNotifier;
  /** The verdict gateway's internal API. */
  state: StateService;
  tenantEvents: TenantEventsService;
  /** The seal outbox the worker relays to the ledger (internal API; docs/operations.md "Seal relay"). */
  sealOutbox: SealOutboxStore;
  /** Archive segments of past partitions of events and webhook deliveries: the worker's internal API and the drop gate (docs/operations.md "Archive"). */
  archiveSegments: ArchiveSegmentStore;
  /** The partitions of events, webhook deliveries and attempts and the seal outbox (docs/operations.md "Partitions"). */
  partitions: PartitionMaintenance;
  /** The retentions the tenants' settings name (docs/operations.md "Retention"). */
  retentions: RetentionService;
  /** Deletes spent notifications and console credentials every PRUNE_INTERVAL_MS (docs/operations.md "Retention"). */
  pruner: BatchPruner;
  close(): Promise<void>;
}

/** What a caller may put in place of the registry's own I/O (tests). */
export interface RegistryDeps {
  /** How webhook hosts are resolved, at subscription time and at every delivery (default: the system resolver). */
  resolveHost?: HostResolver;
}

export function registryMigrationsDir(): string {
  return migrationsDir('registry', __dirname);
}

export function createRegistryContext(config: RegistryConfig, logger: Logger, deps: RegistryDeps = {}): RegistryContext {
  if (!config.SMTP_URL) logger.info('approval notification emails are off: SMTP_URL is not set (chat webhooks still notify)');
  const verdictClient = config.VERDICT_URL
    ? new VerdictInternalClient({ baseUrl: config.VERDICT_URL, token: config.INTERNAL_TOKEN })
    : null;
  const pool = createPool({ url: config.DATABASE_URL_REGISTRY, max: config.DB_POOL_SIZE, applicationName: 'arbiter-registry' });
  const prisma = createPrismaClient(PrismaClient, pool);
  // Publishing must fail fast rather than queue while Redis is away (invalidation is best-effort).
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', (err) => logger.debug({ err }, 'redis error'));
  const repo = new IdentityRepository(prisma);
  const consoleRepo = new ConsoleRepository(prisma);
  const introspection = new IntrospectionService(repo, consoleRepo);
  const oidc = oidcSettings(config);
  // The registry reads its own database on every request: a revocation holds here at once.
  const authenticator = new Authenticator({
    resolver: introspection,
    source: 'bearer',
    errors: registryAuthErrors,
  });
  const repos = repositories(prisma);
  const webhookTargets = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, resolve: deps.resolveHost ?? systemResolver };
  const sender = new WebhookSender({ ...webhookTargets, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
  const notifier = new ApprovalNotifier(
    prisma,
    {
      mailer: config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.SMTP_FROM, config.WEBHOOK_TIMEOUT_MS) : null,
      chat: (url, body) => sender.send(url, { body, headers: { 'Content-Type': 'application/json' } }),
      verdictStatus: config.VERDICT_URL
        ? async (tenantId, approvalId) => (await verdictClient!.approvalStatus(tenantId, approvalId))?.status ?? null
        : null,
      consoleUrl:
        config.CONSOLE_URL ?? `${config.REGISTRY_PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${config.HOST}:${config.PORT}`}/console`,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
      inflightMs: config.WEBHOOK_TIMEOUT_MS + 60_000,
    },
    logger,
  );
  const writer = new ChangeWriter(prisma, redis, logger, (tx, tenantId, events) => notifier.route(tx, tenantId, events));
  const access = new ScopeAccess(repos);
  const scopes = new ScopesService(repos, repo, writer, access);
  const webhookKeys = createWebhookKeys(pool, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS);
  const metrics = createRegistryMetrics();
  const retentions = new RetentionService(pool);
  // Archive segments of past events and deliveries partitions (docs/operations.md "Archive").
  const archiveSegments = new ArchiveSegmentStore(pool, ['events', 'webhook_deliveries']);
  const spentRows = new SpentRowsRepository(pool);
  const pruner = new BatchPruner((batch) => spentRows.pruneAnyTenant(batch), logger, {
    intervalMs: config.PRUNE_INTERVAL_MS,
    what: 'pruning of spent notifications, console credentials and event keys',
  });
  pruner.start();
  return {
    config,
    metrics,
    logger,
    pool,
    prisma,
    redis,
    authenticator,
    identity: new IdentityService(
      repo,
      redis,
      logger,
      (tenantId, type) => writer.touch(tenantId, type),
      async (url) => {
        const target = await resolveWebhookTarget(url, webhookTargets);
        return target.ok ? null : target.problem;
      },
      { min: config.RETENTION_MIN, max: config.RETENTION_MAX },
    ),
    introspection,
    console: new ConsoleService(consoleRepo, repo, redis, logger, {
      sessionTtlSeconds: config.CONSOLE_SESSION_TTL_SECONDS,
      oidc: oidc && new OidcClient(oidc),
    }),
    scopes,
    entries: new EntriesService(repos, writer, access),
    rules: new RulesService(repos, repo, writer, access, config.LEDGER_SEALING, config.TENANT_RULES_MAX_BYTES),
    ruleShadow: new RuleShadowService(repos, access, verdictClient),
    overrides: new OverridesService(repos, writer, access, scopes, config.TENANT_OVERRIDES_MAX_BYTES),
    references: new ReferencesService(repos, writer, access),
    links: new LinksService(repos, writer, access),
    search: new SearchService(pool, repos, access),
    compliance: new ComplianceService(pool, repos, access, scopes, config.COMPLIANCE_BUDGET_MS),
    resolve: new ResolveService(repos, access),
    events: new EventsService(repos, access),
    approvals: new ApprovalsService(
      repos,
      writer,
      access,
      config.APPROVAL_GRANT_TTL_SECONDS,
      config.APPROVAL_TTL_SECONDS,
      config.LEDGER_SEALING,
    ),
    webhooks: new WebhooksService(prisma, access, {
      targets: webhookTargets,
      keyEncryptionKey: config.KEY_ENCRYPTION_KEY,
      secretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS,
    }),
    keys: webhookKeys,
    relay: new OutboxRelayService(prisma, { maxAttempts: config.WEBHOOK_MAX_ATTEMPTS, leaseMs: config.WEBHOOK_DISPATCH_LEASE_MS }, logger),
    deliveries: new WebhookDeliveryService(
      prisma,
      webhookKeys,
      sender,
      {
        retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
        retryMaxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        maxConsecutiveFailures: config.WEBHOOK_MAX_CONSECUTIVE_FAILURES,
        keyEncryptionKey: config.KEY_ENCRYPTION_KEY,
        previousKeyEncryptionKey: config.KEY_ENCRYPTION_KEY_PREVIOUS,
      },
      logger,
      () => retentions.hints(),
    ),
    notifier,
    state: new StateService(prisma, repos),
    tenantEvents: new TenantEventsService(repos, repo, writer),
    sealOutbox: new SealOutboxStore(pool, REGISTRY_SEAL_ACTOR),
    archiveSegments,
    // The drop of an events or deliveries partition waits for every tenant's recorded segment (docs/operations.md "Archive").
    partitions: registryPartitions(pool, config, retentions, metrics.service, logger, archiveSegments),
    retentions,
    pruner,
    async close() {
      await pruner.stop();
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      redis.disconnect();
    },
  };
}
