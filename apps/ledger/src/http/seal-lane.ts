import type { IncomingMessage } from 'node:http';
import { requirePermission } from '@arbiter/auth';
import { sendJson, type FastLane } from '@arbiter/http';
import type { LedgerContext } from '../context';
import type { SealFactBody } from '../models/ledger';
import { findUnstorable } from '../domain/storable';
import { ledgerAuthErrors, unstorableError, validationError } from './errors';
import { limitRequest, type KeyCheck } from './rate-limit';
import { unstorableInParams, unstorableInQuery } from './unstorable';

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
 * The seal body (docs/ledger-formats.md "Seal request body"; the OpenAPI SealFactBody, as tsoa checks it on the general path):
 * tenant_id, actor and custom_payload (an object) required, client_ref optional, nothing else.
 * FactsService.seal then checks the payload's size, depth and text, and that every string can be
 * stored (domain/storable.ts).
 */
export function parseSealBody(raw: unknown): SealFactBody {
  try {
    return parseSealShape(raw);
  } catch (err) {
    // A body the shape refuses may also hold a string that cannot be stored: answer that first,
    // as the tsoa route does (refuseUnstorable runs before its validation). Only on this error path.
    const unstorable = findUnstorable(raw, '');
    throw unstorable ? unstorableError({ ...unstorable, field: unstorable.field || 'body' }) : err;
  }
}

function parseSealShape(raw: unknown): SealFactBody {
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

const KEY_CHECK = Symbol('ledger key check');
type WithKeyCheck = IncomingMessage & { [KEY_CHECK]?: KeyCheck };

/**
 * POST /streams/<stream_id>/facts on a fast lane before express (ADR 0006), the ledger's hot path.
 * Same order and answers as the tsoa route (controllers/streams.controller.ts), which keeps the
 * OpenAPI contract and serves what the lane does not take: the rate limit (before the body), the
 * body, the credentials and the `seal` permission, strings PostgreSQL cannot store, the body's shape
 * (parseSealBody), the seal.
 */
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
      const known = (req as WithKeyCheck)[KEY_CHECK];
      if (known?.error) throw known.error;
      const identity = known?.identity ?? (await ctx.authenticator.authenticate(req.headers, ['seal']));
      requirePermission(identity, 'seal', ledgerAuthErrors);
      // As refuseUnstorable does on the tsoa routes; the body's strings are FactsService.seal's.
      const unstorable = unstorableInQuery(req.url ?? '') ?? unstorableInParams({ stream_id: streamId });
      if (unstorable) throw unstorableError(unstorable);
      const { fact, created } = await ctx.facts.seal(identity, streamId, parseSealBody(raw));
      ctx.metrics.seals.inc({ result: created ? 'created' : 'replayed' });
      sendJson(res, created ? 201 : 200, fact);
    },
  };
}
