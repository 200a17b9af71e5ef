import type { Express, NextFunction, Request, Response } from 'express';
import { fastLaneBodyLength, readJsonBody, sendJson } from '@arbiter/http';
import type { VerdictContext } from '../context';

/**
 * POST /<tenant_id>/v1/check on a fast lane (ADR 0006). The product's hot path skips tsoa's generic
 * validation and dispatch and express's body parser, and answers in one write; it keeps the order and
 * the answers of the tsoa route (controllers/check.controller.ts), which defines the OpenAPI contract
 * and serves what the lane passes on (compressed, chunked or oversize bodies, other charsets):
 * the body, then the credentials and the `check` permission, then the body's shape (parseCheckBody),
 * then the evaluation.
 */
export function checkFastLane(ctx: VerdictContext) {
  return (app: Express, bodyLimitBytes: number): void => {
    app.post('/:tenant_id/v1/check', async (req: Request, res: Response, next: NextFunction) => {
      const length = fastLaneBodyLength(req, bodyLimitBytes);
      if (length === null) return next();
      try {
        const body = await readJsonBody(req, length);
        const identity = await ctx.authenticator.authenticate(req.headers, ['check']);
        const answer = await ctx.evaluation.check(identity, String(req.params.tenant_id), body, req.headers['x-verdict-ttl']);
        sendJson(res, 200, answer.body, { 'X-Verdict-TTL': String(answer.ttlSeconds), 'X-Consultation-Id': answer.consultationId });
      } catch (err) {
        next(err);
      }
    });
  };
}
