import { ConfigError } from '@arbiter/config';
import { initTracing } from '@arbiter/telemetry';
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
 * name), start tracing when an OTLP endpoint is set (docs/operations.md "Tracing"), start, then close
 * gracefully on SIGTERM/SIGINT, the buffered spans exported last. The start is logged as `listening`
 * (with the url) or `<service> started`.
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
  const tracing = initTracing(service);
  start(config, logger).then(
    (running) => {
      const tracingField = tracing.enabled ? { otlp_traces: tracing.endpoint } : {};
      if (running.url) logger.info({ url: running.url, ...running.logFields, ...tracingField }, 'listening');
      else logger.info({ ...running.logFields, ...tracingField }, `${service} started`);
      const close = async () => {
        try {
          await running.close();
        } finally {
          await tracing.shutdown().catch((err: unknown) => logger.warn({ err }, 'spans not exported at shutdown'));
        }
      };
      // The process exits on its own once everything closed; the deadline only bounds a hook that hangs.
      closeOnSignals(close, logger, { deadlineMs: (config.SHUTDOWN_GRACE_MS ?? 10_000) + CLOSE_HOOKS_MS });
    },
    (err) => {
      logger.fatal({ err }, 'failed to start');
      process.stderr.write(`${service}: failed to start: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
