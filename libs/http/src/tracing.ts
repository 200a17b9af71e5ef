import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { contextFromHeaders, otelContext, otelTrace, SpanKind, SpanStatusCode, tracer, tracingEnabled, type Context } from '@arbiter/telemetry';

/** Probes and scrapes get no span. */
const UNTRACED = new Set(['/livez', '/readyz', '/metrics']);
const CONTEXT = Symbol('arbiter.traceContext');
const ROUTE = Symbol('arbiter.route');

type Traced = IncomingMessage & { [CONTEXT]?: Context };
type Routed = ServerResponse & { [ROUTE]?: () => string };

/** Remembers how to name the route of a request (the HTTP metrics' label); the server span is named with it at the end. */
export function noteRoute(res: ServerResponse, route: () => string): void {
  (res as Routed)[ROUTE] = route;
}

/**
 * The server span of every request a service answers (fast lanes and express alike), while tracing
 * is on (docs/operations.md "Tracing"): it continues the caller's traceparent, is active while the
 * request is dispatched, and ends with the answer, named `<METHOD> <route pattern>`.
 */
export function traceRequests(service: string, handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!tracingEnabled() || UNTRACED.has(req.url ?? '')) return handle(req, res);
    const parent = contextFromHeaders(req.headers);
    const method = req.method ?? 'GET';
    const span = tracer().startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': (req.url ?? '').split('?')[0], 'arbiter.service': service } },
      parent,
    );
    const ctx = otelTrace.setSpan(parent, span);
    (req as Traced)[CONTEXT] = ctx;
    res.once('close', () => {
      const route = (res as Routed)[ROUTE]?.();
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (res.writableFinished) span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: res.writableFinished ? undefined : 'client closed the request' });
      span.end();
    });
    otelContext.with(ctx, () => handle(req, res));
  };
}

/**
 * Express middleware, after the body parser: the body arrives on the socket's own callbacks, which
 * lose the request's context; this makes the request's server span active again for the routes.
 */
export function resumeTrace(req: Request, _res: Response, next: NextFunction): void {
  const ctx = (req as unknown as Traced)[CONTEXT];
  if (ctx) otelContext.with(ctx, next);
  else next();
}
