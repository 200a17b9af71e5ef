import type { Express } from 'express';
import { acceptedInternalTokens, internalTokenGuard } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import type { RegistryContext } from '../../context';
import { RegisterRoutes } from './routes.generated';

/**
 * `/internal/v1`: service-to-service endpoints (docs/registry.md "Internal API"), generated from the
 * controllers beside this file by tsoa.internal.json, documented in openapi.internal.json (never in
 * the public openapi.json). The token guard stands in front of the whole prefix: without the shared
 * INTERNAL_TOKEN (or, during a rotation, INTERNAL_TOKEN_PREVIOUS; a tenant API key never passes) every path under it answers 401, known or not.
 */
export function mountInternalApi(app: Express, ctx: RegistryContext): void {
  app.use(
    '/internal/v1',
    internalTokenGuard(
      acceptedInternalTokens(ctx.config.INTERNAL_TOKEN, ctx.config.INTERNAL_TOKEN_PREVIOUS),
      () => new AppError(401, 'unauthorized', 'Missing or invalid internal token'),
    ),
  );
  RegisterRoutes(app);
}
