import http from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface RunningServer {
  server: http.Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then runs the close hooks. */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  logger: Logger;
  graceMs?: number;
  /** Run after the server stopped taking requests: flush batches, close pools. */
  onClose?: () => Promise<void>;
}

export async function listen(app: Express, opts: ListenOptions): Promise<RunningServer> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const grace = opts.graceMs ?? 10_000;
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), grace);
      await done;
      clearTimeout(timer);
      await opts.onClose?.();
    })());
  return { server, url, close };
}

/** SIGTERM/SIGINT: close gracefully once, then exit; a second signal exits at once. */
export function closeOnSignals(close: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
