import {
  closeRedisConnection,
  createProducer,
  createRedisConnection,
  queueDepths,
  startWorkers,
  subscribeNudges,
  maintenanceJob,
  MAINTENANCE_SCHEDULER_ID,
  type ArbiterJobCatalog,
  type HandlerMap,
} from '@arbiter/queue';
import { ServiceMetrics, startOpsServer, type RunningServer } from '@arbiter/http';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import { createJobHandlers } from './jobs';
import { LedgerInternalClient, RegistryInternalClient, VerdictInternalClient } from '@arbiter/internal-api';
import { OutboxRelay } from './relay';
import { openArchiveStore } from '@arbiter/archive';
import type { ArchiveDeps } from './archive';
import { SealRelay } from './seal-relay';

export interface RunningWorker {
  readonly queues: readonly string[];
  /** The outbox relay loop (tests call `pass()` to relay at once). */
  readonly relay: OutboxRelay;
  /** The seal relay loop (docs/operations.md "Seal relay"). */
  readonly sealRelay: SealRelay;
  /**
   * Graceful stop (SIGTERM): the relays finish their pass and stop, then the BullMQ workers stop
   * taking jobs and wait up to SHUTDOWN_GRACE_MS for the running ones; jobs not started stay in
   * Redis for the other workers. A job cut off at the end of the grace period is retried by
   * BullMQ, and the registry answers its attempt `skipped` if it had already run.
   */
  close(): Promise<void>;
  /** The ops endpoint when METRICS_PORT is set. */
  readonly ops?: RunningServer;
}

export async function startWorker(config: WorkerConfig, logger: Logger): Promise<RunningWorker> {
  const registry = new RegistryInternalClient({
    baseUrl: config.REGISTRY_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.REGISTRY_TIMEOUT_MS,
  });
  const verdict = new VerdictInternalClient({
    baseUrl: config.VERDICT_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.LEDGER_TIMEOUT_MS,
  });
  const ledger = new LedgerInternalClient({
    baseUrl: config.LEDGER_URL,
    token: config.INTERNAL_TOKEN,
    timeoutMs: config.LEDGER_TIMEOUT_MS,
  });
  const connection = createRedisConnection(config.REDIS_URL, { forWorker: true, logger });
  const producerConnection = createRedisConnection(config.REDIS_URL, { forWorker: false, logger });
  // Subscriber mode takes a connection of its own.
  const nudgeConnection = createRedisConnection(config.REDIS_URL, { forWorker: true, logger });
  const producer = createProducer(producerConnection, { prefix: config.QUEUE_PREFIX });
  const closeRedis = async () => {
    await producer.close().catch(() => undefined);
    await Promise.all([closeRedisConnection(connection), closeRedisConnection(producerConnection), closeRedisConnection(nudgeConnection)]);
  };
  const metrics = new ServiceMetrics('worker', { defaultMetrics: true });
  const archive = archiveDeps(config, { verdict, registry, ledger }, logger, metrics);
  try {
    const partitionsDropped = metrics.counter('maintenance_partitions_dropped_total', {
      help: 'Past partitions the maintenance job had dropped, by owning service and table',
      labelNames: ['owner', 'table'],
    });
    const relay = new OutboxRelay(registry, producer, { intervalMs: config.RELAY_INTERVAL_MS, batchSize: config.RELAY_BATCH_SIZE }, logger);
    const workers = await startWorkers({
      connection,
      handlers: counted(
        createJobHandlers({
          registry,
          verdict,
          ledger,
          archive,
          onRetryScheduled: (at) => relay.wakeAt(at),
          onPartitionDropped: (owner, d) => partitionsDropped.inc({ owner, table: d.table }),
        }),
        metrics,
      ),
      concurrency: config.WORKER_CONCURRENCY,
      prefix: config.QUEUE_PREFIX,
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      logger,
    });
    relay.start();
    const sealRelay = new SealRelay(
      { verdict, registry },
      producer,
      {
        intervalMs: config.RELAY_INTERVAL_MS,
        batchSize: config.SEAL_BATCH_SIZE,
        leaseMs: config.SEAL_LEASE_MS,
        gatherMs: config.SEAL_GATHER_MS,
      },
      logger,
    );
    sealRelay.start();
    // docs/operations.md "Partitions": one schedule across workers (a BullMQ job scheduler with a fixed id). Redis
    // away at start: tried again until it answers.
    let scheduleRetry: NodeJS.Timeout | undefined;
    const scheduleMaintenance = (): void => {
      producer
        .schedule(maintenanceJob, {}, { schedulerId: MAINTENANCE_SCHEDULER_ID, everyMs: config.MAINTENANCE_INTERVAL })
        .catch((err: unknown) => {
          logger.warn({ err }, 'cannot schedule maintenance.v1.run yet; trying again');
          scheduleRetry = setTimeout(scheduleMaintenance, 5_000);
          scheduleRetry.unref();
        });
    };
    scheduleMaintenance();
    // Services nudge after committing outbox rows; RELAY_INTERVAL_MS is only the fallback poll.
    const unsubscribe = subscribeNudges(nudgeConnection, (owner) => {
      if (owner === 'registry') relay.wake();
      sealRelay.wake(owner);
    });
    metrics.gauge('queue_jobs', {
      help: 'Jobs per queue and state, read from Redis at each scrape',
      labelNames: ['queue', 'state'],
      async collect() {
        const depths = await queueDepths(producerConnection, { prefix: config.QUEUE_PREFIX }).catch(() => ({}));
        for (const [queue, d] of Object.entries(depths)) {
          for (const [state, n] of Object.entries(d)) this.set({ queue, state }, n as number);
        }
      },
    });
    const ops =
      config.METRICS_PORT === undefined
        ? undefined
        : await startOpsServer({
            service: 'worker',
            host: config.HOST,
            port: config.METRICS_PORT,
            logger,
            metrics,
            readiness: [{ name: 'redis', check: async () => void (await producerConnection.ping()) }],
          });
    let closing: Promise<void> | undefined;
    return {
      queues: workers.queues,
      relay,
      sealRelay,
      ops,
      close: () =>
        (closing ??= (async () => {
          await ops?.close();
          clearTimeout(scheduleRetry);
          unsubscribe();
          await Promise.all([relay.stop(), sealRelay.stop()]);
          await workers.close();
          await closeRedis();
        })()),
    };
  } catch (err) {
    await closeRedis();
    throw err;
  }
}

/** Counts every job run by name and result (`arbiter_jobs_total`). */
/** What the maintenance job archives with (docs/operations.md "Archive"): ARCHIVE_URL, the owners' and the ledger's internal APIs. */
function archiveDeps(
  config: WorkerConfig,
  clients: { verdict: VerdictInternalClient; registry: RegistryInternalClient; ledger: LedgerInternalClient },
  logger: Logger,
  metrics: ServiceMetrics,
): ArchiveDeps {
  const rows = metrics.counter('archived_rows_total', { help: 'Rows written to archive segments, by kind', labelNames: ['kind'] });
  return {
    store: openArchiveStore(config),
    owners: { verdict: clients.verdict, registry: clients.registry },
    ledger: clients.ledger,
    log: logger,
    onArchived: (kind, n) => rows.inc({ kind }, n),
  };
}

function counted(handlers: HandlerMap<ArbiterJobCatalog>, metrics: ServiceMetrics): HandlerMap<ArbiterJobCatalog> {
  const jobs = metrics.counter('jobs_total', { help: 'Jobs run by name and result', labelNames: ['job', 'result'] });
  const out: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    out[name] = async (payload: never, ctx: never) => {
      try {
        const result = await (handler as (p: never, c: never) => Promise<unknown>)(payload, ctx);
        jobs.inc({ job: name, result: 'completed' });
        return result;
      } catch (err) {
        jobs.inc({ job: name, result: 'failed' });
        throw err;
      }
    };
  }
  return out as HandlerMap<ArbiterJobCatalog>;
}
