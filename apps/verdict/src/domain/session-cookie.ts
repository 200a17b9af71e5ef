import { hash, randomBytes } from 'node:crypto';

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

/**
 * The session cookie's value from a Cookie header (RFC 6265 section 5.4: `name=value` pairs separated
 * by `;`, a value optionally in double quotes); undefined when absent or empty.
 */
export function sessionTokenFrom(headers: { cookie?: string }): string | undefined {
  const header = headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value || undefined;
  }
  return undefined;
}
