import type { Logger } from 'pino';
import { applyMigrations } from '@arbiter/db';
import { listen, type RunningServer } from '@arbiter/http';
import type { VerdictConfig } from './config';
import { buildVerdictApp } from './app';
import { createVerdictContext, verdictMigrationsDir, type VerdictContext } from './context';

export interface RunningVerdict extends RunningServer {
  ctx: VerdictContext;
}

/** Applies migrations and serves (used by main.ts and by tests). */
export async function startVerdict(config: VerdictConfig, logger: Logger): Promise<RunningVerdict> {
  const { applied } = await applyMigrations(config.DATABASE_URL_VERDICT, verdictMigrationsDir());
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const ctx = await createVerdictContext(config, logger);
  try {
    const server = await listen(buildVerdictApp(ctx), {
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
