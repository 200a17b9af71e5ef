import type { Express } from 'express';
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
    openapi,
    readiness: [migrationsCurrentCheck(ctx.pool, ledgerMigrationsDir()), { name: 'redis', check: async () => void (await ctx.redis.ping()) }],
    before: (app) => app.use(rateLimitMiddleware(ctx.authenticator, ctx.rateLimiter)),
    routes: (app) => RegisterRoutes(app),
  });
  app.locals.ctx = ctx;
  app.locals.authenticator = ctx.authenticator;
  return app;
}
