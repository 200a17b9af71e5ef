import type { Logger } from 'pino';
import { applyMigrations } from '@arbiter/db';
import { listen, type RunningServer } from '@arbiter/http';
import type { RegistryConfig } from './config';
import { buildRegistryApp } from './app';
import { createRegistryContext, registryMigrationsDir, type RegistryContext } from './context';
import { ensureBootstrapAdmin } from './services/bootstrap';
import { checkStoredOverrideConditions } from './services/override-conditions';

export interface RunningRegistry extends RunningServer {
  ctx: RegistryContext;
}

/** Applies migrations, ensures the bootstrap admin and a webhook signing key, and serves (used by main.ts and by tests). */
export async function startRegistry(config: RegistryConfig, logger: Logger): Promise<RunningRegistry> {
  const { applied } = await applyMigrations(config.DATABASE_URL_REGISTRY, registryMigrationsDir());
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const ctx = createRegistryContext(config, logger);
  try {
    if (config.BOOTSTRAP_ADMIN_KEY) await ensureBootstrapAdmin(ctx.prisma, config.BOOTSTRAP_ADMIN_KEY, logger);
    await checkStoredOverrideConditions(ctx.prisma, logger);
    // Creates the first webhook signing key, and proves KEY_ENCRYPTION_KEY opens the current one.
    const kid = await ctx.webhookKeys.checkCurrent();
    logger.debug({ kid }, 'webhook signing key ready');
    const server = await listen(buildRegistryApp(ctx), {
      host: config.HOST,
      port: config.PORT,
      logger,
      graceMs: config.SHUTDOWN_GRACE_MS,
      onClose: () => ctx.close(),
    });
    return { ...server, ctx };
  } catch (err) {
    await ctx.close();
    throw err;
  }
}
