import type { NextFunction, Request, Response } from 'express';
import type { AuthedRequest } from '@arbiter/auth';
import type { FastLane } from '@arbiter/http';
import { sendJson } from '@arbiter/http';
import type { VerdictContext } from '../context';
import type { Answer } from '../services/evaluation.service';
import { assertStorableRequest } from './unstorable-strings';

/**
 * The handlers of POST /<tenant_id>/v1/check and /resolve. Each route has one: EvaluationService's
 * check or resolve takes the raw body and parses it once (http/request-parsing.ts), whichever
 * door the request came in by:
 *
 * - the check fast lane (ADR 0006), on the plain node:http objects before express, for the common
 *   case (an uncompressed JSON body with a Content-Length within the limit);
 * - the tsoa routes (controllers/check.controller.ts, resolve.controller.ts), which define the
 *   OpenAPI contract and serve everything else. There `checkRoute` and `resolveRoute` run as the
 *   method's middleware, once express has parsed the body, the unstorable-strings guard has run
 *   (unstorable-strings.ts) and tsoa's authentication hook has checked the `check` permission, and
 *   answer the request themselves: tsoa's own validation of the body, which the parser repeats with
 *   the codes the verdict contract (docs/verdicts.md) names, is not run.
 *
 * Both doors check in the same order: the body's JSON, strings PostgreSQL cannot store (query, body,
 * path), the credentials (X-API-Key or the session cookie, SessionsService.authenticate) and the
 * `check` permission, then the body's shape, then the evaluation; they answer with the same bytes.
 */

/** X-Verdict-TTL and X-Consultation-Id, on complete answers only. */
function answerHeaders(answer: Answer<unknown>): Record<string, string> {
  return answer.consultationId ? { 'X-Verdict-TTL': String(answer.ttlSeconds), 'X-Consultation-Id': answer.consultationId } : {};
}

/** As tsoa answers a controller's result: its headers, then the status and the JSON. */
function respond(res: Response, answer: Answer<unknown>): void {
  for (const [name, value] of Object.entries(answerHeaders(answer))) res.set(name, value);
  res.status(200).json(answer.body);
}

/** POST /<tenant_id>/v1/check on its fast lane. */
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
      sendJson(res, 200, answer.body, answerHeaders(answer));
    },
  };
}

/** POST /<tenant_id>/v1/check on the tsoa route (`@Middlewares` of CheckController.check). */
export function checkRoute(req: Request, res: Response, next: NextFunction): void {
  const ctx = req.app.locals.ctx as VerdictContext;
  ctx.evaluation.check((req as AuthedRequest).user, String(req.params.tenant_id), req.body, req.headers['x-verdict-ttl']).then((answer) => respond(res, answer), next);
}

/** POST /<tenant_id>/v1/resolve (`@Middlewares` of ResolveController.resolve); it has no fast lane. */
export function resolveRoute(req: Request, res: Response, next: NextFunction): void {
  const ctx = req.app.locals.ctx as VerdictContext;
  ctx.evaluation.resolve((req as AuthedRequest).user, String(req.params.tenant_id), req.body, req.headers['x-verdict-ttl']).then((answer) => respond(res, answer), next);
}
