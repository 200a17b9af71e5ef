import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { credentialFrom, type Authenticator, type Identity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { rateLimitHeaders } from '../domain/token-bucket';
import type { RateLimiter } from '../services/rate-limiter';
import { IDENTITY_LOCAL } from './authentication';

/**
 * Rate limits per API key (Document 3 "Limits", DESIGN.md section 8), before the body is read, so
 * every response to a request with a valid key carries the X-RateLimit-* headers: successes and every
 * error after authentication (400, 403, 404, 429, 500). Requests without a valid key have no bucket:
 * they get their 401 from the route's authentication, without headers. Answers the key's identity
 * (undefined without a valid key); throws the 429 when the bucket is empty.
 */
export async function limitRequest(authenticator: Authenticator, limiter: RateLimiter, req: IncomingMessage, res: ServerResponse): Promise<Identity | undefined> {
  if (!credentialFrom(req.headers, 'x-api-key')) return undefined;
  let identity: Identity;
  try {
    identity = await authenticator.authenticate(req.headers);
  } catch {
    return undefined; // the route answers 401/403/503 with the same authenticator
  }
  const decision = await limiter.consume(identity.key_id, limiter.policyFor(identity.rate_limit));
  const headers = rateLimitHeaders(decision);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (!decision.allowed) {
    const retryAfter = Number(headers['Retry-After']);
    throw new AppError(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfter} s`, { retry_after_seconds: retryAfter });
  }
  return identity;
}

/** limitRequest for the express routes, as the app's `before` middleware. */
export function rateLimitMiddleware(authenticator: Authenticator, limiter: RateLimiter): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const identity = await limitRequest(authenticator, limiter, req, res);
      if (identity) res.locals[IDENTITY_LOCAL] = identity;
      next();
    } catch (err) {
      next(err);
    }
  };
}
