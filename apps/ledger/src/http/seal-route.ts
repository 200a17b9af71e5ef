import type { IncomingMessage } from 'node:http';
import { answer, unstorableInParams, unstorableInQuery, type FastLane } from '@arbiter/http';
import type { LedgerContext } from '../context';
import { StreamsController } from '../controllers/streams.controller';
import { authorize, type KeyCheck } from './authentication';
import { unstorableError } from '../domain/errors';
import { limitRequest } from './rate-limit';

/**
 * POST /streams/<stream_id>/facts, the ledger's hot path. StreamsController.sealFact is its one
 * handler (FactsService.seal takes the raw body, parses and validates it once, seals, and counts the
 * seal); both doors call it and answer 201 (or 200 for a client_ref retry) with the fact:
 *
 * - the fast lane (ADR 0006), here, before express, for the common case (an uncompressed JSON body
 *   with a Content-Length within the limit);
 * - the tsoa route (controllers/streams.controller.ts), which defines the OpenAPI contract and serves
 *   everything else, through ownBody, without tsoa's own validation of the body.
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
      const inQuery = unstorableInQuery(req.url ?? '');
      if (inQuery) throw unstorableError(inQuery, 'query');
      const inPath = unstorableInParams({ stream_id: streamId });
      if (inPath) throw unstorableError(inPath, 'path');
      const controller = new StreamsController(ctx);
      answer(controller, res, await controller.sealFact({ user: identity }, streamId, raw as never));
    },
  };
}
