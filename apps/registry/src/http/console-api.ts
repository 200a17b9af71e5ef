import type { Express, NextFunction, Request, Response } from 'express';
import { AppError } from '@arbiter/http';
import type { RegistryContext } from '../context';
import { csrfTokenFor, sessionCookie } from '../domain/console-cookies';
import { csrfRefusal, SAFE_METHODS } from '../domain/console-csrf';
import { forwardTarget } from '../domain/console-forward';
import type { LiveSession } from '../services/console.service';
import { header, noStore, ownOriginsOf, secureCookiesFor, sessionTokenOf } from './console-request';

/** The verdict forwarder's base as the browser sees it (GET /console/api/session `verdict_base`). */
const VERDICT_BASE = '/console/api/verdict';
/** Headers of a forwarded answer that the browser needs; everything else (cookies included) stays behind. */
const PASSED_HEADERS = ['content-type', 'location', 'retry-after', 'link', 'x-request-id'];
const REFUSAL_CODES = { 400: 'bad_request', 404: 'not_found', 503: 'unavailable' } as const;

/**
 * The console's API (docs/identity.md "Console sign-in", ADR 0029): the session, sign-out, and the forwarders that
 * swap the session cookie for the session's credential and call the registry's and the verdict service's public APIs,
 * whose every check then applies as to any caller. Answers carry Cache-Control: no-store.
 */
export function mountConsoleApi(app: Express, ctx: RegistryContext): void {
  const { config } = ctx;
  const unauthorized = () => new AppError(401, 'unauthorized', 'Not signed in to the console, or the session has ended');

  /** The live session of the request's cookie, after the cross-site and CSRF checks; throws 401 or 403. */
  const authorize = async (req: Request): Promise<{ token: string; session: LiveSession }> => {
    const token = sessionTokenOf(req);
    const session = token ? await ctx.console.session(token) : null;
    if (!token || !session) throw unauthorized();
    const refusal = csrfRefusal({
      method: req.method,
      csrfHeader: header(req, 'x-csrf-token'),
      expectedToken: csrfTokenFor(token),
      secFetchSite: header(req, 'sec-fetch-site'),
      origin: header(req, 'origin'),
      ownOrigins: ownOriginsOf(req, config),
    });
    if (refusal) throw new AppError(403, 'forbidden', refusal);
    return { token, session };
  };

  app.use('/console/api', (_req: Request, res: Response, next: NextFunction) => {
    noStore(res);
    next();
  });

  app.get('/console/api/session', async (req, res) => {
    const token = sessionTokenOf(req);
    const session = token ? await ctx.console.session(token) : null;
    if (!token || !session) {
      res.status(401).json({ detail: 'Not signed in to the console', ...(ctx.console.oidcEnabled ? { oidc: true } : {}) });
      return;
    }
    res.json({ ...session.view, csrf_token: csrfTokenFor(token), verdict_base: VERDICT_BASE });
  });

  app.post('/console/api/signout', async (req, res) => {
    const { token } = await authorize(req);
    await ctx.console.signOut(token);
    res.setHeader('Set-Cookie', sessionCookie('', 0, secureCookiesFor(req, config)));
    res.status(204).end();
  });

  app.all(/^\/console\/api\/(registry|verdict)\/(.*)$/, async (req, res) => {
    const { session } = await authorize(req);
    const service = req.params[0] as 'registry' | 'verdict';
    const target = forwardTarget(service, req.originalUrl, {
      registry: `http://${hostOf(req.socket.localAddress)}:${req.socket.localPort}`,
      verdict: config.VERDICT_URL,
    });
    if ('refused' in target) throw new AppError(target.status, REFUSAL_CODES[target.status], target.refused);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (service === 'registry') headers.authorization = `Bearer ${session.credential}`;
    else headers['x-api-key'] = session.credential;
    const requestId = header(req, 'x-request-id');
    if (requestId) headers['x-request-id'] = requestId;
    let body: string | undefined;
    if (!SAFE_METHODS.has(req.method) && req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    let answer: globalThis.Response;
    try {
      answer = await fetch(target.url, { method: req.method, headers, body, redirect: 'manual' });
    } catch {
      throw new AppError(502, 'bad_gateway', `The ${service} service could not be reached`);
    }
    res.status(answer.status);
    for (const name of PASSED_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) res.setHeader(name, value);
    }
    res.end(Buffer.from(await answer.arrayBuffer()));
  });

  app.all(/^\/console\/api(\/.*)?$/, () => {
    throw new AppError(404, 'not_found', 'No such console API: the forwarders are /console/api/registry/... and /console/api/verdict/...');
  });
}

function hostOf(address: string | undefined): string {
  if (!address) return '127.0.0.1';
  return address.includes(':') ? `[${address}]` : address;
}
