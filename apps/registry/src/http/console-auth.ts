import express, { type Express, type Request, type Response } from 'express';
import { cookieValue } from '@arbiter/http';
import { secretsEqual } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import {
  isTokenFormat,
  LINK_FORM_COOKIE,
  LINK_LIFETIME_SECONDS,
  newToken,
  OIDC_COOKIE,
  OIDC_TRANSACTION_SECONDS,
  sessionCookie,
  setCookie,
} from '../domain/console-cookies';
import { crossSiteRefusal } from '../domain/console-csrf';
import { continuePage, linkPage, refusalPage } from '../domain/console-pages';
import type { Opened, Refusal } from '../services/console.service';
import { publicBaseOf } from './public-base';
import { header, noStore, ownOriginsOf, secureCookiesFor } from './console-request';

/**
 * Sign-in (docs/identity.md "Console sign-in"): one-time links and OpenID Connect. Mounted before the JSON body rules,
 * since a link's form posts application/x-www-form-urlencoded.
 */
export function mountConsoleAuth(app: Express, ctx: RegistryContext): void {
  const { config } = ctx;
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const secure = (req: Request) => secureCookiesFor(req, config);

  const html = (res: Response, status: number, body: string) => {
    noStore(res);
    res.status(status).type('html').send(body);
  };
  const refuse = (res: Response, r: Refusal) => html(res, r.status, refusalPage(r.refused, r.detail));
  const signIn = (req: Request, res: Response, opened: Opened) => {
    res.append('Set-Cookie', sessionCookie(opened.token, opened.maxAgeSeconds, secure(req)));
  };
  const linkCookie = (req: Request, value: string, maxAge: number) =>
    setCookie(LINK_FORM_COOKIE, value, { path: '/console/auth/link', maxAgeSeconds: maxAge, sameSite: 'Strict', secure: secure(req) });

  // GET shows who the link signs in as and a button; it consumes nothing, so a mail scanner's prefetch is harmless.
  app.get('/console/auth/link/:token', async (req, res) => {
    const token = String(req.params.token);
    const preview = isTokenFormat(token) ? await ctx.console.previewLink(token) : UNKNOWN_LINK;
    if ('refused' in preview) return refuse(res, preview);
    const formToken = newToken();
    res.setHeader('Set-Cookie', linkCookie(req, formToken, LINK_LIFETIME_SECONDS));
    html(res, 200, linkPage({ ...preview, action: `/console/auth/link/${token}`, formToken }));
  });

  // POST consumes the link. Login CSRF: the form's token must equal the cookie its own GET set (double submit), and a
  // browser's request must be same-origin, so another site cannot sign a victim in as someone else.
  app.post('/console/auth/link/:token', form, async (req, res) => {
    const token = String(req.params.token);
    const sent = (req.body as { form_token?: unknown } | undefined)?.form_token;
    const cookie = cookieValue(req.headers.cookie, LINK_FORM_COOKIE);
    const crossSite = crossSiteRefusal({
      method: 'POST',
      secFetchSite: header(req, 'sec-fetch-site'),
      origin: header(req, 'origin'),
      ownOrigins: ownOriginsOf(req, config),
    });
    if (crossSite || typeof sent !== 'string' || !cookie || !secretsEqual(sent, cookie)) {
      return refuse(res, {
        status: 403,
        refused: 'Sign-in refused',
        detail: 'This form was not opened from its own link page in this browser. Open the link again.',
      });
    }
    const opened = isTokenFormat(token) ? await ctx.console.redeemLink(token) : UNKNOWN_LINK;
    res.append('Set-Cookie', linkCookie(req, '', 0));
    if ('refused' in opened) return refuse(res, opened);
    signIn(req, res, opened);
    noStore(res);
    res.redirect(303, opened.next);
  });

  const redirectUri = (req: Request) => `${publicBaseOf(req, config)}/console/auth/callback`;

  app.get('/console/auth/oidc', async (req, res) => {
    if (!ctx.console.oidcEnabled) return refuse(res, NO_OIDC);
    const next = typeof req.query.next === 'string' ? req.query.next : undefined;
    const { url, state } = await ctx.console.startOidc(redirectUri(req), next);
    // Lax, not Strict: the provider's redirect back is a cross-site navigation, which must carry it.
    res.setHeader(
      'Set-Cookie',
      setCookie(OIDC_COOKIE, state, {
        path: '/console/auth',
        maxAgeSeconds: OIDC_TRANSACTION_SECONDS,
        sameSite: 'Lax',
        secure: secure(req),
      }),
    );
    noStore(res);
    res.redirect(302, url);
  });

  app.get('/console/auth/callback', async (req, res) => {
    if (!ctx.console.oidcEnabled) return refuse(res, NO_OIDC);
    const callbackUrl = new URL(req.originalUrl, publicBaseOf(req, config));
    const opened = await ctx.console.finishOidc(redirectUri(req), callbackUrl, cookieValue(req.headers.cookie, OIDC_COOKIE));
    res.append('Set-Cookie', setCookie(OIDC_COOKIE, '', { path: '/console/auth', maxAgeSeconds: 0, sameSite: 'Lax', secure: secure(req) }));
    if ('refused' in opened) return refuse(res, opened);
    signIn(req, res, opened);
    html(res, 200, continuePage(opened.next));
  });
}

const UNKNOWN_LINK: Refusal = {
  status: 404,
  refused: 'Unknown link',
  detail: 'This sign-in link is not valid. Ask an administrator for a new one.',
};
const NO_OIDC: Refusal = {
  status: 404,
  refused: 'Single sign-on is not configured',
  detail: 'This registry has no OpenID Connect provider (OIDC_ISSUER). Ask an administrator for a sign-in link.',
};
