import { Router, type Request, type Response } from 'express';
import { AppError } from '@arbiter/http';
import { internalTokenGuard } from '@arbiter/auth';
import type { RegistryContext } from '../context';

const KEY_HASH = /^[0-9a-f]{64}$/;

/**
 * `/internal/v1`: service-to-service endpoints (DESIGN.md section 1), reachable only with the
 * shared INTERNAL_TOKEN, never with a tenant API key. Not part of the public OpenAPI document.
 */
export function internalRoutes(ctx: RegistryContext): Router {
  const router = Router();
  router.use(internalTokenGuard(ctx.config.INTERNAL_TOKEN, () => new AppError(401, 'unauthorized', 'Missing or invalid internal token')));

  router.post('/introspect', async (req: Request, res: Response) => {
    const keyHash = (req.body as { key_hash?: unknown } | undefined)?.key_hash;
    if (typeof keyHash !== 'string' || !KEY_HASH.test(keyHash)) {
      throw new AppError(400, 'bad_request', 'key_hash must be 64 lowercase hex characters');
    }
    res.json(await ctx.introspection.introspect(keyHash));
  });

  return router;
}
