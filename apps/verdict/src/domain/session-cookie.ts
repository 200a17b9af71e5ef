import { hash, randomBytes } from 'node:crypto';
import { cookieValue } from '@arbiter/http';

/**
 * The session cookie (docs/verdicts.md "Authentication", docs/identity.md): an opaque value of 32
 * random bytes (base64url), sent only over HTTPS (Secure), never readable by scripts (HttpOnly),
 * never sent by another site's request (SameSite=Strict).
 */
export const SESSION_COOKIE = 'arbiter_session';
export const SESSION_TTL_SECONDS = 3600;

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const ATTRIBUTES = 'HttpOnly; Secure; SameSite=Strict; Path=/';

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function isSessionTokenFormat(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

/** Only this digest is stored, as for API keys (SHA-256, hex). */
export function hashSessionToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${SESSION_TTL_SECONDS}`;
}

/** Tells the browser to drop the cookie (DELETE /v1/sessions). */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** The session cookie's value; undefined when absent or empty. */
export function sessionTokenFrom(headers: { cookie?: string }): string | undefined {
  return cookieValue(headers.cookie, SESSION_COOKIE);
}
