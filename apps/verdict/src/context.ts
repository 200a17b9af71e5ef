import bytes from 'bytes';
import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { VERDICT_SEAL_ACTOR } from '@arbiter/audit-streams';
import { createRemoteAuth, type Authenticator } from '@arbiter/auth';
import { openArchiveStore } from '@arbiter/archive';
import {
  ArchiveSegmentStore,
  BatchPruner,
  createPool,
  createPrismaClient,
  migrationsDir,
  PartitionMaintenance,
  SealOutboxStore,
} from '@arbiter/db';
import { ServiceMetrics } from '@arbiter/http';
import { OutboxNudger } from '@arbiter/queue';
import { PrismaClient } from './generated/prisma/client';
import type { VerdictConfig } from './config';
import { ConsultationRepository } from './repositories/consultations.repository';
import { MAX_TAKE_BATCH, WindowRepository } from './repositories/windows.repository';
import { WindowsService } from './services/windows.service';
import { tenantShared } from './services/tenant-share.service';
import { OutcomesService } from './services/outcomes.service';
import { ConsultationsService } from './services/consultations.service';
import { CheckService } from './services/check.service';
import { ResolveService } from './services/resolve.service';
import { ConsultationRecorder } from './services/consultation-recorder.service';
import { subscribeChanges, type ChangeFeed } from './clients/change-feed';
import { verdictAuthErrors } from './domain/errors';
import { SigningKeysService } from './services/signing-keys.service';
import { VerdictKeys } from './keys';
import { TenantRefs } from './services/tenant-refs.service';
import { LedgerInternalClient, RegistryInternalClient } from '@arbiter/internal-api';
import { ResolveSessionRepository } from './repositories/resolve-sessions.repository';
import { CookieSessionRepository } from './repositories/cookie-sessions.repository';
import { SessionsService } from './services/sessions.service';
import { RuleVersionsService } from './services/rule-versions.service';
import { ExplanationsService } from './services/explanations.service';
import { EvidenceService, unconfiguredLedger } from './services/evidence.service';
import { ArchivedConsultations } from './services/archived-consultations.service';
import { LedgerCitationsService, unconfiguredCitationSource } from './services/ledger-citations.service';
import { SnapshotStore } from './services/snapshot-store.service';
import { ShadowService } from './services/shadow.service';
import { createApprovals } from './approvals';
import { ApprovalRepository } from './repositories/approvals.repository';
import { SimulationService } from './services/simulation.service';
import { EvaluationBudget } from './services/evaluation-budget.service';
import type { ApprovalsService } from './services/approvals.service';
import { recordsCompressed, verdictPartitions } from './partitions';
import { RetentionHints } from './services/retention-hints.service';
import { parseKeyEncryptionKey } from '@arbiter/crypto';
import { SubjectKeysRepository } from './repositories/subject-keys.repository';
import { SensitiveValuesService } from './services/sensitive-values.service';
import { ErasuresService } from './services/erasures.service';

/** Everything a request needs, made once per process (or per test app). */
export interface VerdictContext {
  config: VerdictConfig;
  logger: Logger;
  pool: Pool;
  prisma: PrismaClient;
  redis: Redis;
  authenticator: Authenticator;
  registry: RegistryInternalClient;
  snapshots: SnapshotStore;
  keys: VerdictKeys;
  /** POST /<tenant_id>/v1/check: the check orchestration. */
  checks: CheckService;
  /** POST /<tenant_id>/v1/resolve: the resolve sessions. */
  resolves: ResolveService;
  consultations: ConsultationsService;
  /** POST .../consultations/<id>/outcome: what the caller reports, and the give-back of its windows. */
  outcomes: OutcomesService;
  /** GET .../consultations/<id>/explanation: explanations on demand, from the frozen record. */
  explanations: ExplanationsService;
  /** The ledger's proof of a consultation (GET .../consultations/<id>/evidence). */
  evidence: EvidenceService;
  /** Ledger citations of check and resolve Facts, verified before they are evaluated. */
  citations: LedgerCitationsService;
  /** Verdict approvals (apps/verdict/src/approvals.ts). */
  approvals: ApprovalsService;
  ruleVersions: RuleVersionsService;
  signingKeys: SigningKeysService;
  /** JWKS by tenant id or slug. */
  tenantRefs: TenantRefs;
  /** Session cookies: opening, ending, and the caller of check and resolve. */
  sessions: SessionsService;
  /** POST /<tenant_id>/v1/simulations: replays of stored consultations against proposed rule changes. */
  simulations: SimulationService;
  /** Served at /metrics with the HTTP metrics of libs/http. */
  metrics: ServiceMetrics;
  /** The seal outbox the worker relays to the ledger (internal API; docs/operations.md "Seal relay"). */
  sealOutbox: SealOutboxStore;
  /** Archive segments of past consultation partitions: the worker's internal API and the drop gate (docs/operations.md "Archive"). */
  archiveSegments: ArchiveSegmentStore;
  /** Shadow rule disagreements for the registry (internal API; docs/verdicts.md "Shadow rules"). */
  shadow: ShadowService;
  /** The partitions of consultations, shadow disagreements, resolve sessions and the seal outbox (docs/operations.md "Partitions"). */
  partitions: PartitionMaintenance;
  /** POST /<tenant_id>/v1/erasures (docs/operations.md "Erasure"). */
  erasures: ErasuresService;
  close(): Promise<void>;
}

export function verdictMigrationsDir(): string {
  return migrationsDir('verdict', __dirname);
}

const SESSION_SWEEP_MS = 3_600_000;

export async function createVerdictContext(config: VerdictConfig, logger: Logger): Promise<VerdictContext> {
  const pool = createPool({ url: config.DATABASE_URL_VERDICT, max: config.DB_POOL_SIZE, applicationName: 'arbiter-verdict' });
  const prisma = createPrismaClient(PrismaClient, pool);
  // The window store's own connections carry lock_timeout and statement_timeout (docs/verdicts.md "Windows and
  // outcomes"): a window that cannot be read or written in time fails its rule closed.
  const windowPool = createPool({
    url: config.DATABASE_URL_VERDICT,
    max: config.DB_POOL_SIZE,
    applicationName: 'arbiter-verdict-windows',
    timeoutMs: config.WINDOW_TIMEOUT_MS,
  });
  // The record column's compression, as the migrations left it (ADR 0037): new consultations partitions follow it.
  const compressed = await recordsCompressed(pool);
  const metrics = new ServiceMetrics('verdict');
  const takeBatchSizes = metrics.histogram('window_take_batch_size', {
    help: 'Window takes decided per call of window_take_batch (gathered takes, one commit)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  });
  const windowStore = new WindowRepository(windowPool, { onBatch: (size) => takeBatchSizes.observe(size) });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on('error', (err) => logger.debug({ err }, 'redis error'));
  const auth = await createRemoteAuth({
    registryUrl: config.REGISTRY_URL,
    internalToken: config.INTERNAL_TOKEN,
    redisUrl: config.REDIS_URL,
    errors: verdictAuthErrors,
    logger,
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
  });
  const registry = new RegistryInternalClient({ baseUrl: config.REGISTRY_URL, token: config.INTERNAL_TOKEN });
  // A grant lifts its rules only once its approval is recorded approved here (docs/approvals.md "Grants").
  const grantApprovals = new ApprovalRepository(pool);
  const snapshots = new SnapshotStore(registry, {
    pollMs: config.SNAPSHOT_POLL_MS,
    idleMs: config.SNAPSHOT_IDLE_MS,
    maxStaleMs: config.SNAPSHOT_MAX_STALE_MS,
    logger,
    grantsWithoutApproval: (tenantId, grants) => grantApprovals.grantsWithoutApproval(tenantId, grants),
  });
  const batchSizes = metrics.histogram('consultation_commit_batch_size', {
    help: 'Consultation records committed per INSERT (group commit)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 500],
  });
  metrics.gauge('tenant_snapshots', {
    help: 'Tenant snapshots held in memory',
    collect: function () {
      this.set(snapshots.size);
    },
  });
  // Committed seal_outbox rows wake the worker's seal relay at once (docs/operations.md "Seal relay").
  const sealNudger = new OutboxNudger(redis, 'verdict');
  // Every key a tenant's ring gains is sealed in arbiter.<tenant_id>.keys with its creation (docs/ledger-formats.md "The keys stream").
  const keys = new VerdictKeys(
    pool,
    { current: config.KEY_ENCRYPTION_KEY, previous: config.KEY_ENCRYPTION_KEY_PREVIOUS },
    logger,
    undefined,
    config.LEDGER_SEALING ? { onSealed: () => sealNudger.nudge() } : null,
  );
  // Where a record is looked for first by its id: the retentions in use (docs/operations.md "Partitions").
  const retentionHints = new RetentionHints(() => registry.retentionsInUse());
  retentionHints.warm(logger);
  const consultations = new ConsultationRepository(pool, {
    onBatch: (size) => batchSizes.observe(size),
    sealing: config.LEDGER_SEALING,
    onSealed: () => sealNudger.nudge(),
    retentions: () => retentionHints.current(),
  });
  metrics.gauge('consultation_commit_pending', {
    help: 'Consultation records accepted and not yet committed (group commit backlog)',
    collect: function () {
      this.set(consultations.pending);
    },
  });
  const cookieSessions = new SessionsService(new CookieSessionRepository(pool), auth.cache, auth.authenticator);
  const sessions = new ResolveSessionRepository(prisma);
  const signingKeys = new SigningKeysService(keys, registry, snapshots, redis, logger);
  let feed: ChangeFeed | undefined;
  try {
    feed = await subscribeChanges(
      config.REDIS_URL,
      {
        registryChanged: (m) => snapshots.onChange(m),
        keysChanged: (m) => signingKeys.keysChanged(m.tenant_id),
        resubscribed: () => {
          snapshots.refreshAll();
          signingKeys.invalidateAll();
        },
      },
      logger,
    );
  } catch (err) {
    await auth.close();
    throw err;
  }
  snapshots.start();
  const sweep = setInterval(() => {
    sessions.deleteExpiredAnyTenant().catch((err: unknown) => logger.warn({ err }, 'resolve session sweep failed'));
    cookieSessions.deleteExpired().catch((err: unknown) => logger.warn({ err }, 'cookie session sweep failed'));
  }, SESSION_SWEEP_MS);
  sweep.unref();
  // docs/operations.md "Windows": window events that left every window, idle totals rows.
  const pruner = new BatchPruner((batch) => windowStore.pruneAnyTenant(batch), logger, {
    intervalMs: config.WINDOW_PRUNE_INTERVAL_MS,
    what: 'window pruning',
  });
  pruner.start();
  const ruleVersions = new RuleVersionsService(registry, snapshots);

  // docs/operations.md "Archive": what left PostgreSQL is read from its segment (nothing without ARCHIVE_URL).
  const archiveSegments = new ArchiveSegmentStore(pool, ['consultations']);
  const archived = new ArchivedConsultations(archiveSegments, openArchiveStore(config), keys, logger);
  // Sensitive fields: subject keys wrapped under KEY_ENCRYPTION_KEY (docs/verdicts.md "Sensitive fields").
  const subjectKeys = new SubjectKeysRepository(pool);
  const sensitive = new SensitiveValuesService({
    keys: subjectKeys,
    kek: parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY),
    previousKek: config.KEY_ENCRYPTION_KEY_PREVIOUS ? parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY_PREVIOUS) : null,
    logger,
  });

  // One client of the ledger's internal API for evidence and citations; none without LEDGER_URL (503 ledger_unavailable).
  const ledger = config.LEDGER_URL
    ? new LedgerInternalClient({ baseUrl: config.LEDGER_URL, token: config.INTERNAL_TOKEN, timeoutMs: 10_000 })
    : null;
  const citations = new LedgerCitationsService(ledger ?? unconfiguredCitationSource);
  // docs/verdicts.md "Evaluation budget": one for check, resolve and simulations alike.
  const budget = new EvaluationBudget({
    evaluationMs: config.EVALUATION_BUDGET_MS,
    simulationMs: config.SIMULATION_BUDGET_MS,
    metrics,
    logger,
  });
  const consultationsService = new ConsultationsService(consultations, archived, sensitive, ruleVersions);
  const approvals = createApprovals({
    config,
    logger,
    pool,
    consultations: consultationsService,
    snapshots,
    versions: ruleVersions,
    onSealed: () => sealNudger.nudge(),
  });
  // Check and resolve record their consultations through one recorder (signing, storing, metrics).
  const recorder = new ConsultationRecorder({ keys, consultations, logger, issuer: config.VERDICT_ISSUER, metrics });
  // Each tenant's share of the window store (docs/verdicts.md "Windows and outcomes"): most of the window pool's
  // connections and half a gathered batch, so one tenant's load cannot make another's budgets fail closed.
  const windowShare = {
    reads: Math.max(1, Math.floor(config.DB_POOL_SIZE * 0.8)),
    takes: MAX_TAKE_BATCH / 2,
    waitMs: config.WINDOW_TIMEOUT_MS,
  };
  const windows = new WindowsService(tenantShared(windowStore, windowShare), logger, metrics);
  return {
    config,
    logger,
    pool,
    prisma,
    redis,
    authenticator: auth.authenticator,
    registry,
    snapshots,
    keys,
    metrics,
    checks: new CheckService({ snapshots, recorder, logger, oneShots: approvals.oneShots, citations, budget, windows, sensitive }),
    resolves: new ResolveService({
      snapshots,
      recorder,
      sessions,
      logger,
      sessionTtlSeconds: config.RESOLVE_SESSION_TTL_S,
      maxSessionContextBytes: bytes.parse(config.BODY_LIMIT) ?? undefined,
      citations,
      budget,
      windows,
      sensitive,
    }),
    outcomes: new OutcomesService(consultationsService, windowStore, logger, ruleVersions),
    consultations: consultationsService,
    explanations: new ExplanationsService(consultationsService, ruleVersions, budget, logger, sensitive),
    simulations: new SimulationService({ snapshots, consultations, budget, sensitive }),
    evidence: new EvidenceService(consultationsService, ledger ?? unconfiguredLedger),
    citations,
    ruleVersions,
    signingKeys,
    tenantRefs: new TenantRefs(registry, snapshots),
    sessions: cookieSessions,
    approvals: approvals.service,
    sealOutbox: new SealOutboxStore(pool, VERDICT_SEAL_ACTOR),
    archiveSegments,
    shadow: new ShadowService(consultations),
    // The drop of a consultations partition waits for every tenant's recorded segment (docs/operations.md "Archive").
    partitions: verdictPartitions(pool, config, retentionHints, metrics, logger, archiveSegments, compressed),
    erasures: new ErasuresService({ keys: subjectKeys, sensitive, sealing: config.LEDGER_SEALING, onSealed: () => sealNudger.nudge() }),
    async close() {
      clearInterval(sweep);
      await pruner.stop();
      await approvals.stop();
      snapshots.stop();
      // Every accepted consultation is committed before the pool goes.
      await consultations.drain().catch((err: unknown) => logger.error({ err }, 'consultation drain failed'));
      sealNudger.close();
      await feed?.close();
      await auth.close();
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await windowStore.drain();
      await windowPool.end().catch(() => undefined);
      redis.disconnect();
    },
  };
}
