import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdFor } from './request-id';

/** Probes and scrapes: answered many times a minute, never worth a log line. */
const QUIET = new Set(['/livez', '/readyz', '/metrics']);

/**
 * Gives the request its id (X-Request-Id, echoed) and logs one line when its answer is done:
 * `request completed`, or `request aborted` when the client left first; at `error` for a 5xx. The
 * line is built only when its level is enabled and holds no headers, so no credential can reach it.
 * Works on plain node:http objects: express routes and fast lanes (fast-lane.ts) share it.
 */
export function trackRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  loggedUrl: (url: string) => string = (url) => url,
): string {
  const id = requestIdFor(req, res);
  (req as IncomingMessage & { id: string }).id = id;
  if (QUIET.has(req.url ?? '')) return id;
  const started = performance.now();
  res.once('close', () => {
    const status = res.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        reqId: id,
        req: { method: req.method, url: loggedUrl((req as Partial<Request>).originalUrl ?? req.url ?? '') },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
      },
      res.writableFinished ? 'request completed' : 'request aborted',
    );
  });
  return id;
}

/**
 * trackRequest as express middleware. It replaces pino-http, whose per-request child logger
 * serialised and redacted the request on every call, even at LOG_LEVEL=warn: measured, pino-http
 * adds 22 µs of CPU per request at info and 10 µs at warn, this 11 and 4 (bench/handwritten,
 * docs/benchmarks.md "Hand-written pieces against their libraries").
 */
export function requestLogger(logger: Logger, loggedUrl?: (url: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    trackRequest(logger, req, res, loggedUrl);
    next();
  };
}

/** The request id given to (or made for) this request by trackRequest. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { id?: string }).id;
}
