import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { AuthedRequest } from '@arbiter/auth';
import { sendJson, type FastLane } from '@arbiter/http';
import type { LedgerContext } from '../context';
import { authorize } from './authentication';
import { unstorableError } from './errors';
import { limitRequest, type KeyCheck } from './rate-limit';
import { unstorableInParams, unstorableInQuery } from './unstorable';

/**
 * POST /streams/<stream_id>/facts, the ledger's hot path. FactsService.seal is its one handler: it
 * takes the raw body, parses and validates it once (http/seal-request.ts), seals, and counts the
 * seal; both doors lead there and answer 201 (or 200 for a client_ref retry) with the fact:
 *
 * - the fast lane (ADR 0006), before express, for the common case (an uncompressed JSON body with a
 *   Content-Length within the limit);
 * - the tsoa route (controllers/streams.controller.ts), which defines the OpenAPI contract and serves
 *   everything else; `sealRoute`, the method's middleware, answers there, without tsoa's own
 *   validation of the body.
 *
 * Both check in the same order: the rate limit (before the body), the body's JSON, the credentials
 * and the `seal` permission (`authorize`, which the tsoa authentication hook uses too), strings
 * PostgreSQL cannot store in the path and the query (refuseUnstorable on the tsoa route), the body.
 */
const KEY_CHECK = Symbol('ledger key check');
type WithKeyCheck = IncomingMessage & { [KEY_CHECK]?: KeyCheck };

export function sealLane(ctx: LedgerContext): FastLane {
  return {
    method: 'POST',
    // As express matches '/streams/:stream_id/facts': without case, with an optional trailing slash.
    pattern: /^\/streams\/([^/]+)\/facts\/?$/i,
    route: '/streams/:stream_id/facts',
    async beforeBody(req, res) {
      (req as WithKeyCheck)[KEY_CHECK] = await limitRequest(ctx.authenticator, ctx.rateLimiter, req, res);
    },
    async handle(req, res, raw, [streamId]) {
      const identity = await authorize(ctx.authenticator, (req as WithKeyCheck)[KEY_CHECK], req.headers, ['seal']);
      // As refuseUnstorable does on the tsoa routes; the body's strings are FactsService.seal's.
      const unstorable = unstorableInQuery(req.url ?? '') ?? unstorableInParams({ stream_id: streamId });
      if (unstorable) throw unstorableError(unstorable);
      const { fact, created } = await ctx.facts.seal(identity, streamId, raw);
      sendJson(res, created ? 201 : 200, fact);
    },
  };
}

/** The tsoa route's handler (`@Middlewares` of StreamsController.sealFact), answered as tsoa answers. */
export function sealRoute(req: Request, res: Response, next: NextFunction): void {
  const ctx = req.app.locals.ctx as LedgerContext;
  ctx.facts.seal((req as AuthedRequest).user, String(req.params.stream_id), req.body).then(({ fact, created }) => {
    res.status(created ? 201 : 200).json(fact);
  }, next);
}

/**
 * POST /internal/v1/seals (controllers/internal/seals.controller.ts defines its contract): answered
 * here, as sealRoute answers the public seal, so that FactsService.sealForServices reads the raw body
 * once and names every error `seals[i].<field>` (tsoa's own validation would name it otherwise, and
 * walk every payload a second time).
 */
export function serviceSealsRoute(req: Request, res: Response, next: NextFunction): void {
  const ctx = req.app.locals.ctx as LedgerContext;
  ctx.facts.sealForServices(req.body).then((answer) => {
    res.status(200).json(answer);
  }, next);
}
