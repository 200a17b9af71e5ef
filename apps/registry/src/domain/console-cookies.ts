import { hash, randomBytes } from 'node:crypto';

/**
 * The console's cookies and the secrets derived from a session's cookie (docs/identity.md "Console sign-in",
 * ADR 0029). Pure: no I/O, the clock passed in where it matters.
 */
export const SESSION_COOKIE = 'arbiter_console';
/** Set by a one-time link's page and required by its form (login CSRF: the POST must follow that GET). */
export const LINK_FORM_COOKIE = 'arbiter_console_link';
/** Binds an OpenID Connect sign-in to the browser that started it (its `state`). */
export const OIDC_COOKIE = 'arbiter_console_oidc';

export const LINK_LIFETIME_SECONDS = 600;
export const OIDC_TRANSACTION_SECONDS = 600;

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** 32 random bytes, base64url: session cookies, link tokens, form tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function isTokenFormat(value: string | undefined): value is string {
  return value !== undefined && TOKEN_FORMAT.test(value);
}

/** Only this digest of a session or link token is stored (SHA-256, hex), as for API keys. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The session's CSRF token, derived from its cookie by a one-way function: nothing to store, nothing to leak. */
export function csrfTokenFor(sessionToken: string): string {
  return hash('sha256', `arbiter console csrf\n${sessionToken}`, 'base64url');
}

/** Whether a URL names this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Secure except on loopback: a browser sends a Secure cookie over https only, so the embedded default on
 * http://127.0.0.1 would never keep a session; anywhere else the cookie must never cross plain http.
 */
export function cookieSecure(publicBase: string): boolean {
  return !(new URL(publicBase).protocol === 'http:' && isLoopbackUrl(publicBase));
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  sameSite: 'Strict' | 'Lax';
  secure: boolean;
}

/** A Set-Cookie value; always HttpOnly. A max age of 0 tells the browser to drop the cookie. */
export function setCookie(name: string, value: string, o: CookieOptions): string {
  return `${name}=${value}; Path=${o.path}; Max-Age=${o.maxAgeSeconds}; HttpOnly; SameSite=${o.sameSite}${o.secure ? '; Secure' : ''}`;
}

/** The session cookie: HttpOnly, SameSite=Strict, Path=/console, Secure except on loopback. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return setCookie(SESSION_COOKIE, token, { path: '/console', maxAgeSeconds, sameSite: 'Strict', secure });
}

/**
 * Where to go after signing in: a path inside the console, else the inbox. Never another origin (`//host`,
 * `/\host`), so a sign-in link cannot be turned into an open redirect; nor a path that a browser resolves elsewhere
 * (`/console/../api/v1/tenants`, `%2e%2e` alike): the path must be the one a URL parser makes of it.
 */
export function consolePathOrHome(next: string | undefined): string {
  const home = '/console/';
  if (!next || !next.startsWith(home) || /[\\\s]|\/\//.test(next)) return home;
  const base = 'http://console.invalid';
  const url = new URL(next, base);
  return url.origin === base && url.pathname.startsWith(home) && `${url.pathname}${url.search}${url.hash}` === next ? next : home;
}

/**
 * The request log's view of a URL: a sign-in link's token (in the path) and an OpenID Connect callback's code and
 * state (in the query) are credentials while they last, so they never reach a log line.
 */
export function consoleLoggedUrl(url: string): string {
  if (url.startsWith('/console/auth/link/')) return '/console/auth/link/…';
  if (url.startsWith('/console/auth/callback?')) return '/console/auth/callback?…';
  return url;
}
