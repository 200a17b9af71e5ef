import type { Express } from 'express';
import { createServiceApp, registryDialect } from '@arbiter/http';
import type { RegistryContext } from './context';
import { RegisterRoutes } from './routes.generated';
import { mountInternalApi } from './controllers/internal/mount';
import { readinessChecks } from './readiness';
import { rejectNulCharacters } from './http/nul-guard';
import openapi from '../openapi.json';
import { mountConsoleAuth } from './http/console-auth';
import { consoleLoggedUrl } from './domain/console-cookies';
import { mountConsoleApi } from './http/console-api';
import { mountConsoleHeaders, mountConsoleStatic } from './http/console-static';

export function buildRegistryApp(ctx: RegistryContext): Express {
  const app = createServiceApp({
    service: 'registry',
    dialect: registryDialect,
    logger: ctx.logger,
    metrics: ctx.metrics.service,
    bodyLimit: ctx.config.BODY_LIMIT,
    openapi,
    readiness: readinessChecks(ctx),
    loggedUrl: consoleLoggedUrl,
    // The console's sign-in forms post url-encoded bodies: they are mounted before the JSON body rules.
    before: (app) => {
      mountConsoleHeaders(app);
      mountConsoleAuth(app, ctx);
    },
    routes: (app) => {
      app.use(['/api', '/internal'], rejectNulCharacters(/^\/v1\/(search|check)$/));
      mountInternalApi(app, ctx);
      mountConsoleApi(app, ctx);
      mountConsoleStatic(app);
      RegisterRoutes(app);
    },
  });
  app.locals.ctx = ctx;
  app.locals.authenticator = ctx.authenticator;
  return app;
}
