import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdFor } from './request-id';

/** Probes and scrapes: answered many times a minute, never worth a log line. */
const QUIET = new Set(['/livez', '/readyz', '/metrics']);

/**
 * Request ids and one access-log line per answer (`request completed`, or `request aborted` when the
 * client left first; at `error` for a 5xx). It replaces pino-http, whose per-request child logger
 * serialised and redacted the request on every call, even at LOG_LEVEL=warn: about a tenth of a
 * verdict check's CPU (bench/verdict, docs/benchmarks.md). The line is built only when its level is
 * enabled, and holds no headers, so no credential can reach it.
 */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = requestIdFor(req, res);
    (req as Request & { id: string }).id = id;
    if (QUIET.has(req.url)) return next();
    const started = performance.now();
    res.once('close', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const finished = res.writableFinished;
      logger[level](
        { reqId: id, req: { method: req.method, url: req.originalUrl }, res: { statusCode: status }, responseTime: Math.round(performance.now() - started) },
        finished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}

/** The request id given to (or made for) this request by requestLogger. */
export function requestIdOf(req: Request): string | undefined {
  return (req as Request & { id?: string }).id;
}
