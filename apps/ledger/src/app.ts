import type { Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import { createServiceApp, ledgerDialect } from '@arbiter/http';
import { migrationsCurrentCheck } from '@arbiter/db';
import { ledgerMigrationsDir, type LedgerContext } from './context';
import { RegisterRoutes } from './routes.generated';
import { rateLimitMiddleware } from './http/rate-limit';
import { sealLane } from './http/seal-lane';
import openapi from '../openapi.json';

export function buildLedgerApp(ctx: LedgerContext): Express {
  const app = createServiceApp({
    service: 'ledger',
    dialect: ledgerDialect,
    logger: ctx.logger,
    metrics: ctx.metrics.service,
    bodyLimit: ctx.config.BODY_LIMIT,
    fastLanes: [sealLane(ctx)],
    readiness: [migrationsCurrentCheck(ctx.pool, ledgerMigrationsDir()), { name: 'redis', check: async () => void (await ctx.redis.ping()) }],
    // Every response but the orchestrators' /livez, /readyz and the /metrics scrape (registered
    // ahead of `before`) carries the rate-limit headers (docs/ledger-formats.md).
    before: (app) => app.use(rateLimitMiddleware(ctx.authenticator, ctx.rateLimiter)),
    routes: (app) => {
      // Served here rather than by createServiceApp's `openapi` option, which registers them ahead
      // of `before`: the API description is a keyless endpoint like any other and counts against the
      // client address's bucket.
      app.get('/openapi.json', (_req, res) => {
        res.json(openapi);
      });
      app.use('/docs', swaggerUi.serve, swaggerUi.setup(openapi, { swaggerOptions: { validatorUrl: null } }));
      RegisterRoutes(app);
    },
  });
  app.locals.ctx = ctx;
  app.locals.authenticator = ctx.authenticator;
  return app;
}
