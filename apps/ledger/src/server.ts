import type { Logger } from 'pino';
import { startService, type RunningService, type ServiceDefinition } from '@arbiter/http';
import type { LedgerConfig } from './config';
import { buildLedgerApp } from './app';
import { createLedgerContext, ledgerMigrationsDir, type LedgerContext } from './context';

export type RunningLedger = RunningService<LedgerContext>;

export const ledgerService: ServiceDefinition<LedgerConfig, LedgerContext> = {
  migrations: (config) => ({ databaseUrl: config.DATABASE_URL_LEDGER, dir: ledgerMigrationsDir() }),
  context: createLedgerContext,
  startupChecks: [
    // A bundle signing key is current, and KEY_ENCRYPTION_KEY decrypts it: a wrong key stops the
    // start rather than the first bundle.
    async (ctx, _config, logger) => logger.info({ kid: await ctx.keys.checkCurrent() }, 'bundle signing key ready'),
  ],
  app: buildLedgerApp,
};

/** The ledger as main.ts and the tests start it (@arbiter/http startService). */
export const startLedger = (config: LedgerConfig, logger: Logger): Promise<RunningLedger> => startService(ledgerService, config, logger);
