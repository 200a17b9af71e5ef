import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { credentialFrom, type Authenticator } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { rateLimitHeaders } from '../domain/token-bucket';
import type { RateLimiter } from '../services/rate-limiter';
import { IDENTITY_LOCAL } from './authentication';

/**
 * Rate limits per API key (Document 3 "Limits", DESIGN.md section 8). Runs before the body is
 * parsed, so every response to a request with a valid key carries the X-RateLimit-* headers:
 * successes and every error after authentication (400, 403, 404, 429, 500). Requests without a
 * valid key have no bucket: they get their 401 from the route's authentication, without headers.
 */
export function rateLimitMiddleware(authenticator: Authenticator, limiter: RateLimiter): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!credentialFrom(req.headers, 'x-api-key')) return next();
    let identity;
    try {
      identity = await authenticator.authenticate(req.headers);
    } catch {
      return next(); // the route answers 401/403/503 with the same authenticator
    }
    res.locals[IDENTITY_LOCAL] = identity;
    const decision = await limiter.consume(identity.key_id, limiter.policyFor(identity.rate_limit));
    const headers = rateLimitHeaders(decision);
    res.set(headers);
    if (decision.allowed) return next();
    const retryAfter = Number(headers['Retry-After']);
    next(new AppError(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfter} s`, { retry_after_seconds: retryAfter }));
  };
}
