import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextFromHeaders, otelContext, otelTrace, SpanKind, SpanStatusCode, tracer, tracingEnabled } from '@arbiter/telemetry';

/** Probes and scrapes get no span. */
const UNTRACED = new Set(['/livez', '/readyz', '/metrics']);
const ROUTE = Symbol('arbiter.route');

type Routed = ServerResponse & { [ROUTE]?: () => string };

/** Remembers how to name the route of a request (the HTTP metrics' label); the server span is named with it at the end. */
export function noteRoute(res: ServerResponse, route: () => string): void {
  (res as Routed)[ROUTE] = route;
}

/**
 * The server span of every request a service answers (fast lanes and express alike), while tracing
 * is on (docs/operations.md "Tracing"): it continues the caller's traceparent, is active while the
 * request is dispatched (express 5's body parser continues on promises, so the routes still see it),
 * and ends with the answer, named `<METHOD> <route pattern>`.
 */
export function traceRequests(service: string, handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!tracingEnabled() || UNTRACED.has(req.url ?? '')) return handle(req, res);
    const parent = contextFromHeaders(req.headers);
    const method = req.method ?? 'GET';
    const span = tracer().startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'url.path': (req.url ?? '').split('?')[0], 'arbiter.service': service },
      },
      parent,
    );
    const ctx = otelTrace.setSpan(parent, span);
    res.once('close', () => {
      const route = (res as Routed)[ROUTE]?.();
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (res.writableFinished) span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500 || !res.writableFinished)
        span.setStatus({ code: SpanStatusCode.ERROR, message: res.writableFinished ? undefined : 'client closed the request' });
      span.end();
    });
    otelContext.with(ctx, () => handle(req, res));
  };
}
