import type { Express } from 'express';
import { acceptedInternalTokens } from '@arbiter/auth';
import { createServiceApp, ledgerDialect } from '@arbiter/http';
import { migrationsCurrentCheck } from '@arbiter/db';
import { ledgerMigrationsDir, type LedgerContext } from './context';
import { RegisterRoutes } from './routes.generated';
import { internalCaller, rateLimitMiddleware } from './http/rate-limit';
import { mountInternalApi } from './controllers/internal/mount';
import { sealLane } from './http/seal-route';
import openapi from '../openapi.json';

export function buildLedgerApp(ctx: LedgerContext): Express {
  const app = createServiceApp({
    service: 'ledger',
    dialect: ledgerDialect,
    logger: ctx.logger,
    metrics: ctx.metrics.service,
    bodyLimit: ctx.config.BODY_LIMIT,
    fastLanes: [sealLane(ctx)],
    openapi,
    readiness: [
      migrationsCurrentCheck(ctx.pool, ledgerMigrationsDir()),
      { name: 'redis', check: async () => void (await ctx.redis.ping()) },
    ],
    // Every response but the orchestrators' /livez, /readyz and the /metrics scrape (which `before`
    // does not cover) carries the rate-limit headers (docs/ledger-formats.md); the API description
    // is a keyless endpoint like any other and counts against the client address's bucket. The
    // services' calls to /internal/v1 with the service token are no tenant's and take no bucket.
    before: (app) =>
      app.use(
        rateLimitMiddleware(
          ctx.authenticator,
          ctx.rateLimiter,
          internalCaller(acceptedInternalTokens(ctx.config.INTERNAL_TOKEN, ctx.config.INTERNAL_TOKEN_PREVIOUS)),
        ),
      ),
    routes: (app) => {
      mountInternalApi(app, ctx);
      RegisterRoutes(app);
    },
  });
  app.locals.ctx = ctx;
  app.locals.authenticator = ctx.authenticator;
  return app;
}
