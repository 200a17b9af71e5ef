import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { credentialFrom, isInternalToken, type Authenticator } from '@arbiter/auth';
import { INTERNAL_TOKEN_HEADER } from '@arbiter/internal-api';
import { AppError } from '@arbiter/http';
import { rateLimitHeaders } from '../domain/token-bucket';
import type { RateLimiter } from '../services/rate-limiter.service';
import { KEY_CHECK_LOCAL, type KeyCheck } from './authentication';

/**
 * Rate limits (docs/ledger-formats.md "Limits", "Rate limits"), before the body is read, so that
 * every response carries the X-RateLimit-* headers: 2xx, 4xx (401 included) and 5xx. A request with
 * a valid key takes a token from its key's bucket; any other request (no key, a bad key, a key the
 * registry cannot check, a keyless endpoint) from the bucket of its client address, with the
 * standard tier's policy. Throws the 429 when the bucket is empty.
 */
export async function limitRequest(
  authenticator: Authenticator,
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<KeyCheck> {
  const check: KeyCheck = {};
  if (credentialFrom(req.headers, 'x-api-key')) {
    try {
      check.identity = await authenticator.authenticate(req.headers);
    } catch (err) {
      check.error = err;
    }
  }
  const decision = check.identity
    ? await limiter.consume(check.identity.key_id, limiter.policyFor(check.identity.rate_limit))
    : await limiter.consume(`addr:${clientAddress(req)}`, limiter.policyFor(null));
  const headers = rateLimitHeaders(decision);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (!decision.allowed) {
    const retryAfter = Number(headers['Retry-After']);
    throw new AppError(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfter} s`, { retry_after_seconds: retryAfter });
  }
  return check;
}

/**
 * The peer's address. Behind a proxy this is the proxy's, so requests without a valid key share its
 * bucket: the ledger trusts no X-Forwarded-For (docs/ledger-formats.md "Rate limits").
 */
function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The services' calls to the internal API (docs/ledger-formats.md "Internal API"): under
 * /internal/, with a service token the guard accepts (INTERNAL_TOKEN, or INTERNAL_TOKEN_PREVIOUS during a rotation). They are not a tenant's requests and take no tenant or
 * address bucket (the relay sizes its batches instead); a request there without the token is
 * limited by its address like any keyless request, then answered 401.
 */
export function internalCaller(accepted: readonly string[]): (req: Request) => boolean {
  return (req) => req.path.startsWith('/internal/') && isInternalToken(req.headers[INTERNAL_TOKEN_HEADER], accepted);
}

/** limitRequest for the express routes, as the app's `before` middleware; `exempt` requests skip it. */
export function rateLimitMiddleware(
  authenticator: Authenticator,
  limiter: RateLimiter,
  exempt?: (req: Request) => boolean,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (exempt?.(req)) return next();
    try {
      res.locals[KEY_CHECK_LOCAL] = await limitRequest(authenticator, limiter, req, res);
      next();
    } catch (err) {
      next(err);
    }
  };
}
