import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { AppError, type ErrorDialect } from './errors';
import { renderError } from './render-error';
import { markDraining } from './health';
import type { LaneDispatch } from './lanes';
import { traceRequests } from './tracing';

export interface RunningServer {
  server: http.Server;
  url: string;
  /**
   * Graceful stop: /readyz turns 503, the server stops accepting connections, in-flight requests
   * finish (each answered with `Connection: close`, so keep-alive clients reconnect elsewhere) for
   * up to graceMs, after which the remaining connections are cut; then the close hooks run.
   * Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  logger: Logger;
  /** How long in-flight requests may take once shutdown starts (SHUTDOWN_GRACE_MS); default 10 s. */
  graceMs?: number;
  /** Run after the last request finished or was cut: flush batched writes, close pools. */
  onClose?: () => Promise<void>;
}

/** Longer than the idle timeouts of common load balancers (60 s), so they close first, never us mid-request. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The node:http request listener of an app made by createServiceApp: its fast lanes first (lanes.ts,
 * ADR 0006), then express for every request no lane takes; each request in a server span while
 * tracing is on (tracing.ts).
 */
export function requestHandler(app: Express): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const lanes = app.locals.fastLanes as LaneDispatch | undefined;
  const dialect = app.locals.dialect as ErrorDialect | undefined;
  const serve = lanes
    ? (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (!lanes(req, res)) app(req, res);
      }
    : app;
  // listen() lets requests without Host through (requireHostHeader: false) so that they are refused
  // here, in the service's error format, as node:http would refuse them (RFC 9112 section 3.2).
  const dispatch = dialect
    ? (req: http.IncomingMessage, res: http.ServerResponse) => {
        if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
          res.setHeader('Connection', 'close');
          return renderError(dialect.problem('bad_request', 'An HTTP/1.1 request must carry a Host header'), req, res, dialect);
        }
        serve(req, res);
      }
    : serve;
  return traceRequests(String(app.locals.service ?? 'service'), dispatch);
}

/**
 * What node:http refuses before any handler runs (a header value with a control character, a
 * malformed request line or framing, headers too large, a request too slow to arrive) answered as
 * node:http answers it (400, 431, 408, then the connection is closed), but with a body in the
 * service's error format instead of none (docs/development.md "Storable JSON").
 */
export function answerClientErrors(server: http.Server, dialect: ErrorDialect): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    // As node's own handler: nothing is written once an answer has started, or to a closed socket.
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy(err);
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'The request headers are too large'
        : status === 408
          ? 'The request did not arrive in time'
          : 'The request is not valid HTTP: a malformed request line, header or body framing (a control character in a header value, say)';
    const problem = dialect.problem('bad_request', message);
    const body = JSON.stringify(dialect.body(new AppError(status, problem.code, problem.message, problem.details)));
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

export async function listen(app: Express, opts: ListenOptions): Promise<RunningServer> {
  const server = http.createServer({ requireHostHeader: false });
  const dialect = app.locals.dialect as ErrorDialect | undefined;
  if (dialect) answerClientErrors(server, dialect);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Must exceed keepAliveTimeout, or a request arriving on an idle connection can be cut (Node docs).
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;

  let draining = false;
  const inFlight = new Set<http.ServerResponse>();
  // Registered before the app, so the header is set before the app can answer synchronously.
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A keep-alive socket whose last answer went out before `Connection: close` could be set.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  server.on('request', requestHandler(app));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const grace = opts.graceMs ?? 10_000;
      draining = true;
      markDraining(app);
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let cut = 0;
      const timer = setTimeout(() => {
        cut = inFlight.size;
        server.closeAllConnections();
      }, grace);
      await stopped;
      clearTimeout(timer);
      if (cut) opts.logger.warn({ cut, graceMs: grace }, 'shutdown grace period over: cut in-flight requests');
      await opts.onClose?.();
    })());
  return { server, url, close };
}

export interface CloseOnSignalsOptions {
  /**
   * Exit with status 1 when closing takes longer than this (a hook that hangs must not keep a
   * terminating pod alive until SIGKILL). Default: no deadline.
   */
  deadlineMs?: number;
}

/** SIGTERM/SIGINT: close gracefully once, then exit; a second signal exits at once. */
export function closeOnSignals(close: () => Promise<void>, logger: Logger, opts: CloseOnSignalsOptions = {}): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    if (opts.deadlineMs !== undefined) {
      setTimeout(() => {
        logger.error({ deadlineMs: opts.deadlineMs }, 'shutdown deadline passed: exiting');
        process.exit(1);
      }, opts.deadlineMs).unref();
    }
    close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
