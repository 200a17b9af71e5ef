import type { IncomingMessage } from 'node:http';
import { requirePermission, type Identity } from '@arbiter/auth';
import { sendJson, type FastLane } from '@arbiter/http';
import type { LedgerContext } from '../context';
import type { SealFactBody } from '../models/ledger';
import { ledgerAuthErrors, validationError } from './errors';
import { limitRequest } from './rate-limit';

const SEAL_KEYS = new Set(['tenant_id', 'actor', 'custom_payload', 'client_ref']);
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function text(body: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined {
  const v = body[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > max) {
    throw validationError(v === undefined ? `'${key}' is required` : `${key} must be a string of 1 to ${max} characters`, key);
  }
  return v;
}

/**
 * The seal body of Document 3 (the OpenAPI SealFactBody, as tsoa checks it on the general path):
 * tenant_id, actor and custom_payload (an object) required, client_ref optional, nothing else.
 * FactsService.seal then checks the payload's size, depth and text.
 */
export function parseSealBody(raw: unknown): SealFactBody {
  if (!isPlainObject(raw)) throw validationError('The body must be a JSON object');
  for (const key of Object.keys(raw)) if (!SEAL_KEYS.has(key)) throw validationError(`${key} is not a field of the seal body`, key);
  const tenant_id = text(raw, 'tenant_id', 128, true)!;
  const actor = text(raw, 'actor', 256, true)!;
  if (!isPlainObject(raw.custom_payload)) {
    throw validationError(raw.custom_payload === undefined ? "'custom_payload' is required" : 'custom_payload must be a JSON object', 'custom_payload');
  }
  const body: SealFactBody = { tenant_id, actor, custom_payload: raw.custom_payload };
  const clientRef = text(raw, 'client_ref', 255, false);
  if (clientRef !== undefined) body.client_ref = clientRef;
  return body;
}

const IDENTITY = Symbol('ledger identity');
type WithIdentity = IncomingMessage & { [IDENTITY]?: Identity };

/**
 * POST /streams/<stream_id>/facts on a fast lane before express (ADR 0006), the ledger's hot path.
 * Same order and answers as the tsoa route (controllers/streams.controller.ts), which keeps the
 * OpenAPI contract and serves what the lane does not take: the rate limit (before the body), the
 * body, the credentials and the `seal` permission, the body's shape (parseSealBody), the seal.
 */
export function sealLane(ctx: LedgerContext): FastLane {
  return {
    method: 'POST',
    // As express matches '/streams/:stream_id/facts': without case, with an optional trailing slash.
    pattern: /^\/streams\/([^/]+)\/facts\/?$/i,
    route: '/streams/:stream_id/facts',
    async beforeBody(req, res) {
      const identity = await limitRequest(ctx.authenticator, ctx.rateLimiter, req, res);
      if (identity) (req as WithIdentity)[IDENTITY] = identity;
    },
    async handle(req, res, raw, [streamId]) {
      const known = (req as WithIdentity)[IDENTITY];
      const identity = known ?? (await ctx.authenticator.authenticate(req.headers, ['seal']));
      requirePermission(identity, 'seal', ledgerAuthErrors);
      const { fact, created } = await ctx.facts.seal(identity, streamId, parseSealBody(raw));
      ctx.metrics.seals.inc({ result: created ? 'created' : 'replayed' });
      sendJson(res, created ? 201 : 200, fact);
    },
  };
}
