import type { Logger } from 'pino';
import { startService, type RunningService, type ServiceDefinition } from '@arbiter/http';
import type { RegistryConfig } from './config';
import { buildRegistryApp } from './app';
import { createRegistryContext, registryMigrationsDir, type RegistryContext, type RegistryDeps } from './context';
import { ensureBootstrapAdmin } from './services/bootstrap-admin.service';
import { checkStoredOverrideConditions } from './services/override-conditions.service';

export type RunningRegistry = RunningService<RegistryContext>;

export const registryService: ServiceDefinition<RegistryConfig, RegistryContext> = {
  migrations: (config) => ({ databaseUrl: config.DATABASE_URL_REGISTRY, dir: registryMigrationsDir() }),
  context: createRegistryContext,
  startupChecks: [
    async (ctx, config, logger) => {
      if (config.BOOTSTRAP_ADMIN_KEY) await ensureBootstrapAdmin(ctx.prisma, config.BOOTSTRAP_ADMIN_KEY, logger);
    },
    async (ctx, _config, logger) => void (await checkStoredOverrideConditions(ctx.prisma, logger)),
    // Creates the first webhook signing key, and proves KEY_ENCRYPTION_KEY opens the current one.
    async (ctx, _config, logger) => logger.debug({ kid: await ctx.keys.checkCurrent() }, 'webhook signing key ready'),
  ],
  app: buildRegistryApp,
};

/** The registry as main.ts and the tests start it (@arbiter/http startService); tests may pass `deps`. */
export const startRegistry = (config: RegistryConfig, logger: Logger, deps?: RegistryDeps): Promise<RunningRegistry> =>
  startService(deps ? { ...registryService, context: (c, l) => createRegistryContext(c, l, deps) } : registryService, config, logger);
