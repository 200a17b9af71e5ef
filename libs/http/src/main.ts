import { ConfigError } from '@arbiter/config';
import type { Logger } from 'pino';
import { createLogger } from './logger';
import { closeOnSignals } from './server';

/**
 * The shape of every process's main: parse config (a bad variable stops the start with its
 * name), start, then close gracefully on SIGTERM/SIGINT.
 */
export function runMain<C extends { LOG_LEVEL: string }>(
  service: string,
  load: () => C,
  start: (config: C, logger: Logger) => Promise<{ close(): Promise<void>; url?: string }>,
): void {
  let config: C;
  try {
    config = load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(service, config.LOG_LEVEL);
  start(config, logger).then(
    (running) => {
      logger.info({ url: running.url }, running.url ? 'listening' : 'started');
      closeOnSignals(running.close, logger);
    },
    (err) => {
      logger.fatal({ err }, 'failed to start');
      process.stderr.write(`${service}: failed to start: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
