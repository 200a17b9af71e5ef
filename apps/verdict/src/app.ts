import type { Express } from 'express';
import { createServiceApp, verdictDialect } from '@arbiter/http';
import { migrationsCurrentCheck } from '@arbiter/db';
import { verdictMigrationsDir, type VerdictContext } from './context';
import { checkLane } from './http/check-lane';
import { refuseUnstorableParams, refuseUnstorableRequests } from './http/unstorable-strings';
import { translateValidationErrors } from './http/validation-errors';
import { RegisterRoutes } from './routes.generated';
import { mountInternalApi } from './controllers/internal/mount';
import openapi from '../openapi.json';

export function buildVerdictApp(ctx: VerdictContext): Express {
  const app = createServiceApp({
    service: 'verdict',
    dialect: verdictDialect,
    logger: ctx.logger,
    bodyLimit: ctx.config.BODY_LIMIT,
    metrics: ctx.metrics,
    fastLanes: [checkLane(ctx)],
    openapi,
    readiness: [
      migrationsCurrentCheck(ctx.pool, verdictMigrationsDir()),
      { name: 'redis', check: async () => void (await ctx.redis.ping()) },
    ],
    routes: (app) => {
      app.use(refuseUnstorableRequests);
      mountInternalApi(app, ctx);
      RegisterRoutes(app);
      refuseUnstorableParams(app);
      app.use(translateValidationErrors);
    },
  });
  app.locals.ctx = ctx;
  app.locals.authenticator = ctx.authenticator;
  return app;
}
