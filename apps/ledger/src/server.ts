import type { Logger } from 'pino';
import { applyMigrations } from '@arbiter/db';
import { listen, type RunningServer } from '@arbiter/http';
import type { LedgerConfig } from './config';
import { buildLedgerApp } from './app';
import { createLedgerContext, ledgerMigrationsDir, type LedgerContext } from './context';

export interface RunningLedger extends RunningServer {
  ctx: LedgerContext;
}

/**
 * Applies migrations, makes sure a bundle signing key is current (and that KEY_ENCRYPTION_KEY
 * decrypts it: a wrong key stops the start rather than the first bundle), then serves.
 */
export async function startLedger(config: LedgerConfig, logger: Logger): Promise<RunningLedger> {
  const { applied } = await applyMigrations(config.DATABASE_URL_LEDGER, ledgerMigrationsDir());
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const ctx = await createLedgerContext(config, logger);
  try {
    const kid = await ctx.keys.checkCurrent();
    logger.info({ kid }, 'bundle signing key ready');
    const server = await listen(buildLedgerApp(ctx), {
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
