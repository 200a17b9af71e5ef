import { ConfigError } from '@arbiter/config';
import type { Logger } from 'pino';
import { createLogger } from './logger';
import { closeOnSignals } from './server';

/** Time the close hooks (flushing batched writes, closing pools) get after the grace period. */
export const CLOSE_HOOKS_MS = 5_000;

/** What a main starts: an HTTP service (startService) or a process without a public port (the worker). */
export interface Started {
  close(): Promise<void>;
  /** Where an HTTP service listens: the start is logged as `listening` with it. */
  url?: string;
  /** Logged with the start line (e.g. the worker's queues). */
  logFields?: Record<string, unknown>;
}

/**
 * The shape of every process's main: parse config (a bad variable stops the start with its
 * name), start, then close gracefully on SIGTERM/SIGINT. The start is logged as `listening` (with
 * the url) or `<service> started`.
 */
export function runMain<C extends { LOG_LEVEL: string; SHUTDOWN_GRACE_MS?: number }>(
  service: string,
  load: () => C,
  start: (config: C, logger: Logger) => Promise<Started>,
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
      if (running.url) logger.info({ url: running.url, ...running.logFields }, 'listening');
      else logger.info({ ...running.logFields }, `${service} started`);
      // The process exits on its own once everything closed; the deadline only bounds a hook that hangs.
      closeOnSignals(running.close, logger, { deadlineMs: (config.SHUTDOWN_GRACE_MS ?? 10_000) + CLOSE_HOOKS_MS });
    },
    (err) => {
      logger.fatal({ err }, 'failed to start');
      process.stderr.write(`${service}: failed to start: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
