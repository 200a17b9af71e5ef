import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import swaggerUi from 'swagger-ui-express';
import bytes from 'bytes';
import { allowedMethods } from './allowed-methods';
import { checkParsedBody, verifyJsonBytes } from './input-guard';
import type { ErrorDialect } from './errors';
import { laneDispatcher, type FastLane } from './lanes';
import { renderError } from './render-error';
import { requestLogger } from './request-log';
import { readinessHandler, type ReadinessCheck } from './health';
import { tracingEnabled } from '@arbiter/telemetry';
import { noteRoute } from './tracing';
import { httpObserver, metricsHandler, routeLabel, ServiceMetrics } from './metrics';

export interface ServiceAppOptions {
  /** Service name, used in logs and health answers. */
  service: string;
  dialect: ErrorDialect;
  logger: Logger;
  /** JSON body limit (bytes or a string such as '1mb'); docs/verdicts.md "Errors" default 1 MiB. */
  bodyLimit?: string | number;
  /** The committed OpenAPI document, served at /openapi.json and rendered at /docs. */
  openapi?: object;
  readiness?: ReadinessCheck[];
  /**
   * The service's metrics, served at /metrics. Create it with the service's context and pass it here
   * so services can record domain metrics on it; when absent, the app makes its own.
   */
  metrics?: ServiceMetrics;
  /**
   * Hot routes served before express (lanes.ts, ADR 0006): `listen()` hands them the requests they
   * take, everything else goes to the app.
   */
  fastLanes?: FastLane[];
  /**
   * Middleware that must run before the body is parsed (e.g. rate limits). It covers every route but
   * /livez, /readyz and /metrics, the docs (/openapi.json, /docs) included.
   */
  before?: (app: Express) => void;
  /** What the request log shows of a URL: a service whose paths or queries carry secrets masks them here. */
  loggedUrl?: (url: string) => string;
  /** Registers the service's routes (tsoa's RegisterRoutes and any hand-made ones). */
  routes: (app: Express) => void;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/**
 * The express 5 app every service is made of: request ids and logs, metrics, health, docs, a strict
 * JSON body, the service's routes, and one error handler rendering the service's documented error body.
 * Fast lanes (lanes.ts, ADR 0006) are kept on `app.locals.fastLanes`; serve the app with `listen()` or
 * `requestHandler(app)` so that they run before express.
 */
export function createServiceApp(opts: ServiceAppOptions): Express {
  const { dialect, logger } = opts;
  const metrics = opts.metrics ?? new ServiceMetrics(opts.service);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.locals.metrics = metrics;
  app.locals.service = opts.service;
  // listen() answers what node:http refuses before express (a malformed header) in this dialect.
  app.locals.dialect = dialect;

  const metricsObserver = httpObserver(metrics);
  // The route label names the request's server span too (tracing.ts).
  const observe: typeof metricsObserver = (req, res, route) => {
    if (tracingEnabled()) noteRoute(res, route);
    metricsObserver(req, res, route);
  };
  const bodyLimit = opts.bodyLimit ?? '1mb';
  if (opts.fastLanes?.length) {
    const bodyLimitBytes = typeof bodyLimit === 'number' ? bodyLimit : (bytes.parse(bodyLimit) ?? 1024 * 1024);
    app.locals.fastLanes = laneDispatcher({ lanes: opts.fastLanes, bodyLimitBytes, dialect, logger, observe });
  }

  // First, so that every answer is counted, including those of the body parser and the rate limits.
  app.use((req: Request, res: Response, next: NextFunction) => {
    observe(req, res, () => routeLabel(req, res));
    next();
  });
  app.use(requestLogger(logger, opts.loggedUrl));

  app.get('/livez', (_req, res) => {
    res.json({ status: 'ok', service: opts.service });
  });
  app.get('/readyz', readinessHandler(opts.service, opts.readiness ?? []));
  // Scraped from inside the cluster; docs/operations.md says to keep it off the public ingress.
  app.get('/metrics', metricsHandler(metrics));

  // The orchestrators' and the scraper's routes above are the only ones `before` does not cover:
  // the API description is an endpoint like any other (the ledger rate-limits it).
  opts.before?.(app);

  if (opts.openapi) {
    const spec = opts.openapi;
    app.get('/openapi.json', (_req, res) => {
      res.json(spec);
    });
    // Every asset is served from swagger-ui-dist on disk: no request leaves the host.
    app.use('/docs', swaggerUi.serve, swaggerUi.setup(spec, { swaggerOptions: { validatorUrl: null } }));
  }

  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    const type = req.headers['content-type'];
    if (!type || !JSON_TYPE.test(type)) {
      return next(dialect.problem('unsupported_media_type', 'Content-Type must be application/json'));
    }
    next();
  });
  // The storable-JSON guard (input-guard.ts): the bytes and numbers before the parse, nesting after it.
  app.use(
    express.json({ limit: bodyLimit, type: (req) => JSON_TYPE.test(String(req.headers['content-type'] ?? '')), verify: verifyJsonBytes }),
  );
  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (req.body !== undefined) checkParsedBody(req, req.body);
    next();
  });

  opts.routes(app);

  app.use((req: Request, res: Response, next: NextFunction) => {
    res.locals.unmatchedRoute = true;
    const allow = allowedMethods(app, req.path);
    if (allow.length > 0 && !allow.includes(req.method)) {
      res.setHeader('Allow', allow.join(', '));
      return next(dialect.problem('method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${allow.join(', ')}`));
    }
    next(dialect.problem('not_found', `No route for ${req.method} ${req.path}`));
  });
  app.use(errorHandler(dialect, logger));
  return app;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** Maps anything thrown to the service's error body; a 500 answers only an error id. */
export function errorHandler(dialect: ErrorDialect, logger?: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => renderError(err, req, res, dialect, logger);
}
