import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { Authenticator } from '@arbiter/auth';
import { createPool, createPrismaClient, migrationsDir } from '@arbiter/db';
import { PrismaClient } from './generated/prisma/client';
import type { RegistryConfig } from './config';
import { registryAuthErrors } from './http/errors';
import { IdentityRepository } from './repositories/identity.repository';
import { IdentityService } from './services/identity.service';
import { IntrospectionService } from './services/introspection.service';

/** Everything a request needs, made once per process (or per test app). */
export interface RegistryContext {
  config: RegistryConfig;
  logger: Logger;
  pool: Pool;
  prisma: PrismaClient;
  redis: Redis;
  authenticator: Authenticator;
  identity: IdentityService;
  introspection: IntrospectionService;
  close(): Promise<void>;
}

export function registryMigrationsDir(): string {
  return migrationsDir('registry', __dirname);
}

export function createRegistryContext(config: RegistryConfig, logger: Logger): RegistryContext {
  const pool = createPool({ url: config.DATABASE_URL_REGISTRY, max: config.DB_POOL_SIZE, applicationName: 'arbiter-registry' });
  const prisma = createPrismaClient(PrismaClient, pool);
  // Publishing must fail fast rather than queue while Redis is away (invalidation is best-effort).
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', (err) => logger.debug({ err }, 'redis error'));
  const repo = new IdentityRepository(prisma);
  const introspection = new IntrospectionService(repo);
  // The registry reads its own database on every request: a revocation holds here at once.
  const authenticator = new Authenticator({
    resolver: introspection,
    source: 'bearer',
    errors: registryAuthErrors,
  });
  return {
    config,
    logger,
    pool,
    prisma,
    redis,
    authenticator,
    identity: new IdentityService(repo, redis, logger),
    introspection,
    async close() {
      await prisma.$disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      redis.disconnect();
    },
  };
}
