import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { createRemoteAuth, type Authenticator } from '@arbiter/auth';
import { createPool, createPrismaClient, migrationsDir } from '@arbiter/db';
import { PrismaClient } from './generated/prisma/client';
import type { LedgerConfig } from './config';
import { ledgerAuthErrors } from './domain/errors';
import { LedgerRepository } from './repositories/ledger.repository';
import { BundlesRepository } from './repositories/bundles.repository';
import { SealQueue } from './services/seal-queue.service';
import { createLedgerMetrics, type LedgerMetrics } from './metrics';
import { FactsService } from './services/facts.service';
import { VerifyService } from './services/verify.service';
import { BundlesService } from './services/bundles.service';
import { RateLimiter } from './services/rate-limiter.service';
import { HealthService } from './services/health.service';
import { createLedgerKeys, type LedgerKeys } from './keys';
import { KeyTransitionsRepository } from './repositories/key-transitions.repository';
import { MerkleRepository } from './repositories/merkle.repository';
import { MerkleTree } from './services/merkle-tree.service';
import { ProofsService } from './services/proofs.service';

/** Everything a request needs, made once per process (or per test app). */
export interface LedgerContext {
  config: LedgerConfig;
  metrics: LedgerMetrics;
  logger: Logger;
  pool: Pool;
  prisma: PrismaClient;
  redis: Redis;
  authenticator: Authenticator;
  sealQueue: SealQueue;
  facts: FactsService;
  verify: VerifyService;
  bundles: BundlesService;
  tree: MerkleTree;
  proofs: ProofsService;
  keys: LedgerKeys;
  /** The ring's rotations, published with its keys (docs/ledger-formats.md "Key transitions"). */
  keyTransitions: KeyTransitionsRepository;
  rateLimiter: RateLimiter;
  health: HealthService;
  close(): Promise<void>;
}

export function ledgerMigrationsDir(): string {
  return migrationsDir('ledger', __dirname);
}

export async function createLedgerContext(config: LedgerConfig, logger: Logger): Promise<LedgerContext> {
  const pool = createPool({ url: config.DATABASE_URL_LEDGER, max: config.DB_POOL_SIZE, applicationName: 'arbiter-ledger' });
  const prisma = createPrismaClient(PrismaClient, pool);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on('error', (err) => logger.debug({ err }, 'redis error'));
  // The rate limiter's own connection fails fast instead of queueing while Redis is away
  // (docs/development.md): a request must not wait for Redis to come back.
  const limiterRedis = new Redis(config.REDIS_URL, {
    enableOfflineQueue: false,
    // Every request asks the bucket: commands of concurrent requests share one write to Redis.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    commandTimeout: config.RATE_LIMIT_REDIS_TIMEOUT_MS,
  });
  limiterRedis.on('error', (err) => logger.debug({ err }, 'rate limit redis error'));
  await waitForReady(limiterRedis, 2000);
  const auth = await createRemoteAuth({
    registryUrl: config.REGISTRY_URL,
    internalToken: config.INTERNAL_TOKEN,
    redisUrl: config.REDIS_URL,
    errors: ledgerAuthErrors,
    logger,
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
  });

  const repo = new LedgerRepository(pool);
  const metrics = createLedgerMetrics();
  const tree = new MerkleTree(new MerkleRepository(pool), logger);
  const sealQueue = new SealQueue(pool, repo, {
    maxBatch: config.SEAL_BATCH_MAX,
    concurrency: config.SEAL_CONCURRENCY,
    onFlush: (size) => metrics.sealBatchSize.observe(size),
    onAppended: (stream, from, to, factHashes) => tree.noteAppended(stream, from, to, factHashes),
  });
  const facts = new FactsService(repo, sealQueue, metrics.seals, logger);
  const verifier = new VerifyService(repo, config.VERIFY_PAGE_SIZE);
  const keys = createLedgerKeys(pool, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS);
  const bundles = new BundlesService(facts, verifier, new BundlesRepository(prisma), keys);
  const proofs = new ProofsService(facts, repo, tree, keys, metrics.proofDuration);
  const rateLimiter = new RateLimiter({
    redis: limiterRedis,
    logger,
    defaults: { capacity: config.RATE_LIMIT_BURST, perMinute: config.RATE_LIMIT_PER_MINUTE },
  });
  return {
    config,
    metrics,
    logger,
    pool,
    prisma,
    redis,
    authenticator: auth.authenticator,
    sealQueue,
    facts,
    verify: verifier,
    bundles,
    tree,
    proofs,
    keys,
    keyTransitions: new KeyTransitionsRepository(pool),
    rateLimiter,
    health: new HealthService(pool, redis, keys),
    async close() {
      await sealQueue.idle();
      await tree.idle();
      await auth.close();
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      redis.disconnect();
      limiterRedis.disconnect();
    },
  };
}

/** Waits until the connection is ready or has failed once (the limiter falls back meanwhile). */
function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
    redis.once('error', done);
  });
}
