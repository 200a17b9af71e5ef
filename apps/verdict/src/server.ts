import type { Logger } from 'pino';
import { startService, type RunningService, type ServiceDefinition } from '@arbiter/http';
import type { VerdictConfig } from './config';
import { buildVerdictApp } from './app';
import { createVerdictContext, verdictMigrationsDir, type VerdictContext } from './context';

export type RunningVerdict = RunningService<VerdictContext>;

export const verdictService: ServiceDefinition<VerdictConfig, VerdictContext> = {
  migrations: (config) => ({ databaseUrl: config.DATABASE_URL_VERDICT, dir: verdictMigrationsDir() }),
  context: createVerdictContext,
  app: buildVerdictApp,
};

/** The verdict gateway as main.ts and the tests start it (@arbiter/http startService). */
export const startVerdict = (config: VerdictConfig, logger: Logger): Promise<RunningVerdict> =>
  startService(verdictService, config, logger);
