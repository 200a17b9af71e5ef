import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { createRemoteAuth, type Authenticator } from '@arbiter/auth';
import { createPool, createPrismaClient, migrationsDir } from '@arbiter/db';
import { PrismaClient } from './generated/prisma/client';
import type { VerdictConfig } from './config';
import { verdictAuthErrors } from './http/errors';

/** Everything a request needs, made once per process (or per test app). */
export interface VerdictContext {
  config: VerdictConfig;
  logger: Logger;
  pool: Pool;
  prisma: PrismaClient;
  redis: Redis;
  authenticator: Authenticator;
  close(): Promise<void>;
}

export function verdictMigrationsDir(): string {
  return migrationsDir('verdict', __dirname);
}

export async function createVerdictContext(config: VerdictConfig, logger: Logger): Promise<VerdictContext> {
  const pool = createPool({ url: config.DATABASE_URL_VERDICT, max: config.DB_POOL_SIZE, applicationName: 'arbiter-verdict' });
  const prisma = createPrismaClient(PrismaClient, pool);
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
  return {
    config,
    logger,
    pool,
    prisma,
    redis,
    authenticator: auth.authenticator,
    async close() {
      await auth.close();
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      redis.disconnect();
    },
  };
}
