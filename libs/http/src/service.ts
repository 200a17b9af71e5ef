import type { Express } from 'express';
import type { Logger } from 'pino';
import { applyMigrations } from '@arbiter/db';
import { listen, type RunningServer } from './server';

/** The configuration every HTTP service has (each service's config.ts). */
export interface ServiceConfig {
  HOST: string;
  PORT: number;
  SHUTDOWN_GRACE_MS?: number;
}

/** What a service is made of; its server.ts declares one, startService runs it. */
export interface ServiceDefinition<C extends ServiceConfig, Ctx extends { close(): Promise<void> }> {
  /** The service's database and its migrations folder (Prisma's layout, ADR 0003), applied first. */
  migrations(config: C): { databaseUrl: string; dir: string };
  /** Pools, clients, repositories and services; its close() is the last step of every stop. */
  context(config: C, logger: Logger): Ctx | Promise<Ctx>;
  /**
   * Run in order once the context exists and before the port opens: what must hold for the service
   * to answer at all (a key that decrypts, a bootstrap admin). A failure stops the start.
   */
  startupChecks?: ReadonlyArray<(ctx: Ctx, config: C, logger: Logger) => Promise<void>>;
  app(ctx: Ctx): Express;
}

export interface RunningService<Ctx> extends RunningServer {
  ctx: Ctx;
}

/**
 * The start of every HTTP service: migrate, make the context, run the startup checks, listen. A
 * failure after the context exists closes it (pools and clients are not left open behind a failed
 * start). The answer's close() is listen()'s graceful stop, followed by the context's close().
 */
export async function startService<C extends ServiceConfig, Ctx extends { close(): Promise<void> }>(
  def: ServiceDefinition<C, Ctx>,
  config: C,
  logger: Logger,
): Promise<RunningService<Ctx>> {
  const { databaseUrl, dir } = def.migrations(config);
  const { applied } = await applyMigrations(databaseUrl, dir);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const ctx = await def.context(config, logger);
  try {
    for (const check of def.startupChecks ?? []) await check(ctx, config, logger);
    const server = await listen(def.app(ctx), {
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
