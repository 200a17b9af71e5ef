import type { FastLane } from '@arbiter/http';
import { sendJson } from '@arbiter/http';
import type { VerdictContext } from '../context';
import { assertStorableRequest } from './unstorable-strings';

/**
 * POST /<tenant_id>/v1/check on a fast lane (ADR 0006): served on the plain node:http objects before
 * express, without tsoa's generic validation and dispatch, answered in one write. It keeps the order
 * and the answers of the tsoa route (controllers/check.controller.ts), which defines the OpenAPI
 * contract and serves what the lane does not take (compressed, chunked or oversize bodies, other
 * media types): the body, then strings PostgreSQL cannot store (query, body, path: as the express
 * middleware and path parameter hooks of unstorable-strings.ts), then the credentials (X-API-Key or
 * the session cookie) and the `check` permission, then the body's shape (parseCheckBody), then the
 * evaluation.
 */
export function checkLane(ctx: VerdictContext): FastLane {
  return {
    method: 'POST',
    // As express matches '/:tenant_id/v1/check': without case, with an optional trailing slash.
    pattern: /^\/([^/]+)\/v1\/check\/?$/i,
    route: '/:tenant_id/v1/check',
    async handle(req, res, body, [tenant]) {
      assertStorableRequest(req.url ?? '', body, { tenant_id: tenant });
      const identity = await ctx.sessions.authenticate(req.headers, ['check']);
      const answer = await ctx.evaluation.check(identity, tenant, body, req.headers['x-verdict-ttl']);
      sendJson(res, 200, answer.body, { 'X-Verdict-TTL': String(answer.ttlSeconds), 'X-Consultation-Id': answer.consultationId! });
    },
  };
}
