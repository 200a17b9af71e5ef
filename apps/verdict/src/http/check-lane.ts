import type { FastLane } from '@arbiter/http';
import { answer } from '@arbiter/http';
import type { VerdictContext } from '../context';
import { CheckController } from '../controllers/check.controller';
import { assertStorableRequest } from './unstorable-strings';

/**
 * POST /<tenant_id>/v1/check on its fast lane (ADR 0006): the common request (an uncompressed JSON body
 * with a Content-Length within the limit) on the plain node:http objects, before express. It calls the
 * route's one handler, CheckController.check, as the tsoa route does (controllers/check.controller.ts),
 * and answers its result as tsoa would. Both doors check in the same order: the body's JSON, strings
 * PostgreSQL cannot store (query, body, path), the credentials (X-API-Key or the session cookie,
 * SessionsService.authenticate) and the `check` permission, then the body's shape, then the
 * evaluation; they answer with the same bytes (e2e/src/verdict-check.e2e.spec.ts "the fast lane and the
 * general path").
 */
export function checkLane(ctx: VerdictContext): FastLane {
  return {
    method: 'POST',
    // As express matches '/:tenant_id/v1/check': without case, with an optional trailing slash.
    pattern: /^\/([^/]+)\/v1\/check\/?$/i,
    route: '/:tenant_id/v1/check',
    async handle(req, res, body, [tenant]) {
      assertStorableRequest(req.url ?? '', body, { tenant_id: tenant });
      const user = await ctx.sessions.authenticate(req.headers, ['check']);
      const controller = new CheckController(ctx);
      answer(controller, res, await controller.check(tenant, { user }, body as never, req.headers['x-verdict-ttl'] as string | undefined));
    },
  };
}
