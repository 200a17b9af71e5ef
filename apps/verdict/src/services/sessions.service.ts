import type { IncomingHttpHeaders } from 'node:http';
import {
  credentialFrom,
  hashApiKey,
  hasPermission,
  isConsoleCredentialFormat,
  isPermission,
  type Authenticator,
  type AuthenticatedIdentity,
  type KeyResolver,
  type Permission,
} from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { verdictAuthErrors as errors } from '../domain/errors';
import type { SessionCreated } from '../models/sessions';
import type { CookieSessionRepository } from '../repositories/cookie-sessions.repository';
import {
  hashSessionToken,
  isSessionTokenFormat,
  newSessionToken,
  SESSION_TTL_SECONDS,
  sessionCookie,
  sessionTokenFrom,
} from '../domain/session-cookie';

/**
 * Session cookies (docs/verdicts.md "Authentication", docs/identity.md). A key holding `check` opens a
 * session; the cookie then stands for that key on check and resolve. Nothing of the key is copied
 * into the session but its identity's address: each use resolves the key again through the same
 * cache as an X-API-Key (revocations arrive on Redis and drop it at once), so a revoked, expired or
 * narrowed key ends or narrows its sessions immediately.
 */
export class SessionsService {
  constructor(
    private readonly sessions: CookieSessionRepository,
    private readonly keys: KeyResolver,
    private readonly authenticator: Authenticator,
  ) {}

  /** POST /v1/sessions, authenticated with the key (never with a session: a session cannot prolong itself). */
  async open(identity: AuthenticatedIdentity, headers: IncomingHttpHeaders): Promise<SessionCreated & { cookie: string }> {
    const key = credentialFrom(headers, 'x-api-key');
    if (!key) throw errors.missing();
    // A console session's credential never opens a second kind of session (ADR 0029).
    if (isConsoleCredentialFormat(key))
      throw new AppError(403, 'insufficient_permission', 'A console session cannot open a session cookie');
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
    await this.sessions.create({
      token_hash: hashSessionToken(token),
      tenant_id: identity.tenant_id,
      principal_id: identity.principal.id,
      key_id: identity.key_id,
      key_hash: hashApiKey(key),
      expires_at: expiresAt,
    });
    return { expires_at: expiresAt.toISOString(), cookie: sessionCookie(token) };
  }

  /** DELETE /v1/sessions: 401 missing_credentials without the cookie, invalid_credentials when it is not a live session. */
  async end(headers: IncomingHttpHeaders): Promise<void> {
    const token = sessionTokenFrom(headers);
    if (token === undefined) throw errors.missing();
    if (!isSessionTokenFormat(token) || !(await this.sessions.deleteLive(hashSessionToken(token)))) throw errors.invalid();
  }

  /**
   * The caller of check and resolve: the X-API-Key when one is sent (the hot path, unchanged: the
   * key cache and nothing else), otherwise the session cookie, otherwise 401 missing_credentials.
   */
  authenticate(headers: IncomingHttpHeaders, required: readonly string[]): Promise<AuthenticatedIdentity> {
    if (credentialFrom(headers, 'x-api-key') !== undefined) return this.authenticator.authenticate(headers, required);
    const token = sessionTokenFrom(headers);
    if (token === undefined) return this.authenticator.authenticate(headers, required);
    return this.bySession(token, required);
  }

  private async bySession(token: string, required: readonly string[]): Promise<AuthenticatedIdentity> {
    if (!isSessionTokenFormat(token)) throw errors.invalid();
    const session = await this.sessions.findLive(hashSessionToken(token));
    if (!session) throw errors.invalid();
    let identity: AuthenticatedIdentity | null;
    try {
      identity = await this.keys.resolve(session.key_hash);
    } catch {
      throw errors.unavailable();
    }
    // The same checks as an X-API-Key (libs/auth Authenticator), on the key as it is now.
    if (!identity || identity.key_id !== session.key_id || identity.tenant_id !== session.tenant_id) throw errors.invalid();
    if (identity.expires_at && Date.parse(identity.expires_at) <= Date.now()) throw errors.invalid();
    if (!identity.principal.active) throw errors.deactivated();
    for (const p of required) {
      if (!isPermission(p) || !hasPermission(identity, p)) throw errors.forbidden(p as Permission);
    }
    // A session carries only what check and resolve need, whatever else its key holds.
    return { ...identity, permissions: hasPermission(identity, 'check') ? ['check'] : [] };
  }

  deleteExpired(): Promise<number> {
    return this.sessions.deleteExpiredAnyTenant();
  }
}
