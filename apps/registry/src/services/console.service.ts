import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import {
  consoleCredentialFor,
  CONSOLE_SESSION_ID_PREFIX,
  hasPermission,
  isConsoleSession,
  isPermission,
  publishInvalidation,
  type AuthenticatedIdentity,
  type Permission,
  type TenantId,
} from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { newId } from '@arbiter/db';
import { hashToken, LINK_LIFETIME_SECONDS, newToken, OIDC_TRANSACTION_SECONDS, consolePathOrHome } from '../domain/console-cookies';
import { forbidden, notFound, unprocessable } from '../domain/errors';
import { refusePlatformAdminPrincipal } from './platform-principal.service';
import { OidcClient, type OidcTransaction } from '../clients/oidc';
import type { ConsoleRepository } from '../repositories/console.repository';
import type { IdentityRepository, PrincipalRow } from '../repositories/identity.repository';
import type { ConsoleLinkCreated } from '../models/identity';

/** Why a sign-in did not open a session: shown to the person as a page, never as an account. */
export interface Refusal {
  /** 404 unknown link, 410 used or expired, 403 no usable principal, 400 a sign-in that did not check out, 503 no provider. */
  status: 400 | 403 | 404 | 410 | 503;
  refused: string;
  detail: string;
}

/** A session just opened: the cookie's value is shown to the browser once and stored only as its hash. */
export interface Opened {
  token: string;
  expiresAt: Date;
  maxAgeSeconds: number;
  next: string;
}

/** GET /console/api/session (docs/identity.md "Console sign-in"). */
export interface ConsoleSessionView {
  principal: { id: string; name: string; kind: string; roles: string[] };
  tenant_id: string;
  permissions: Permission[];
  expires_at: string;
}

/** A live session of an active human principal, and the credential the forwarders present for it. */
export interface LiveSession {
  view: ConsoleSessionView;
  credential: string;
}

const OIDC_KEY = (state: string) => `arbiter:console:oidc:${hashToken(state)}`;

/**
 * The console's sign-in and sessions (docs/identity.md "Console sign-in", ADR 0029): one-time links, OpenID Connect,
 * sessions that hold no permissions of their own (the principal's console_permissions are read at each use) and die
 * with the principal, at sign-out, or at their absolute lifetime.
 */
export class ConsoleService {
  constructor(
    private readonly repo: ConsoleRepository,
    private readonly identity: IdentityRepository,
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly opts: { sessionTtlSeconds: number; oidc: OidcClient | null },
  ) {}

  get oidcEnabled(): boolean {
    return this.opts.oidc !== null;
  }

  // --- one-time links ------------------------------------------------------------------------

  /**
   * POST /api/v1/principals/{id}/console-links. The link opens a session with the principal's console_permissions,
   * so it follows the rule of minting a key: never for a principal whose console holds more than the caller, never
   * from a key restricted to some scopes (a session reaches every scope), never from a console session (it would
   * renew itself past its lifetime), never by a tenant admin for a principal of the platform's (platform-principal.service.ts).
   */
  async createLink(caller: AuthenticatedIdentity, principalId: string, publicBase: string): Promise<ConsoleLinkCreated> {
    if (isConsoleSession(caller)) throw forbidden('A console session cannot create sign-in links; use an API key');
    const platform = hasPermission(caller, 'platform_admin');
    if (!platform && caller.scope_ids.length) {
      throw forbidden('A key restricted to some scopes cannot create sign-in links: a console session reaches every scope');
    }
    const tenantId = platform
      ? ((await this.identity.findPrincipalAnyTenant(principalId))?.tenant_id ?? caller.tenant_id)
      : caller.tenant_id;
    const principal = await this.identity.findPrincipal(tenantId, principalId);
    if (!principal) throw notFound('Principal', principalId);
    if (principal.kind !== 'human') throw unprocessable('Console sign-in links are for human principals only');
    if (!principal.active) throw unprocessable(`Principal ${principalId} is deactivated`);
    const lacking = principal.console_permissions.find((p) => !isPermission(p) || !hasPermission(caller, p));
    if (lacking)
      throw forbidden(`Missing permission: ${lacking} (the principal's console holds it; a link cannot grant more than its creator holds)`);
    if (!platform) await refusePlatformAdminPrincipal(this.identity, tenantId, principal.id, 'create a sign-in link for');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + LINK_LIFETIME_SECONDS * 1000);
    // A key that expires opens no session that could outlive it: the link's session may start at the link's end and
    // last its whole lifetime. Else a key minted by a session (it must expire) would sign in anew, and again.
    const sessionEnd = expiresAt.getTime() + this.opts.sessionTtlSeconds * 1000;
    if (caller.expires_at && Date.parse(caller.expires_at) < sessionEnd) {
      throw forbidden(
        `A key expiring at ${caller.expires_at} cannot create sign-in links: the session one opens may last until ${new Date(sessionEnd).toISOString()}`,
      );
    }
    const token = newToken();
    await this.repo.createLink(tenantId, {
      created_at: now,
      id: newId('csl-'),
      principal_id: principal.id,
      token_hash: hashToken(token),
      created_by: caller.principal.id,
      expires_at: expiresAt,
    });
    // A deactivation that committed between the check above and the insert did not see this link: end it here.
    if (!(await this.identity.findPrincipal(tenantId, principal.id))?.active) {
      await this.identity.endConsoleAccess(tenantId, principal.id, new Date());
      throw unprocessable(`Principal ${principalId} is deactivated`);
    }
    return { url: `${publicBase}/console/auth/link/${token}`, expires_at: expiresAt.toISOString() };
  }

  /** GET of a link: who it signs in as, without consuming it. */
  async previewLink(token: string): Promise<{ principalName: string; tenantName: string } | Refusal> {
    const link = await this.repo.findLinkAnyTenant(hashToken(token));
    const refusal = linkRefusal(link, new Date());
    if (refusal) return refusal;
    const principal = await this.usablePrincipal(link!.tenant_id, link!.principal_id);
    const tenant = await this.identity.findTenant(link!.tenant_id);
    if (!principal || !tenant) return INACTIVE;
    return { principalName: principal.name, tenantName: tenant.name };
  }

  /** POST of a link: consumes it (one use, also under concurrent posts) and opens a session. */
  async redeemLink(token: string): Promise<Opened | Refusal> {
    const link = await this.repo.findLinkAnyTenant(hashToken(token));
    const now = new Date();
    const refusal = linkRefusal(link, now);
    if (refusal) return refusal;
    if (!(await this.repo.consumeLink(link!.tenant_id, link!.id, now))) return USED;
    const principal = await this.usablePrincipal(link!.tenant_id, link!.principal_id);
    if (!principal) return INACTIVE;
    return this.open(link!.tenant_id, principal, 'link', '/console/');
  }

  // --- OpenID Connect ------------------------------------------------------------------------

  /** GET /console/auth/oidc: the provider's authorization URL; the transaction waits in Redis under its state. */
  async startOidc(redirectUri: string, next: string | undefined): Promise<{ url: string; state: string } | Refusal> {
    const oidc = this.requireOidc();
    const t = OidcClient.newTransaction();
    let url: string;
    try {
      url = await oidc.authorizationUrl(redirectUri, t);
    } catch (err) {
      this.logger.warn({ err, issuer: oidc.issuer }, 'the OpenID Connect provider could not be reached');
      return {
        status: 503,
        refused: 'Single sign-on unavailable',
        detail: 'The identity provider could not be reached. Try again later, or ask an administrator for a sign-in link.',
      };
    }
    const kept = await this.transactions(() =>
      this.redis.set(OIDC_KEY(t.state), JSON.stringify({ ...t, next: consolePathOrHome(next) }), 'EX', OIDC_TRANSACTION_SECONDS),
    );
    if (kept === TRANSACTIONS_DOWN) return TRANSACTIONS_UNAVAILABLE;
    return { url, state: t.state };
  }

  /**
   * GET /console/auth/callback. The transaction is the one whose state the browser's own cookie names, taken once;
   * openid-client then checks the state in the URL, redeems the code with the PKCE verifier and checks the ID token's
   * nonce, issuer and audience. The token's `iss` and `sub` must be bound to an active human principal: no account is
   * ever created.
   */
  async finishOidc(redirectUri: string, callbackUrl: URL, cookieState: string | undefined): Promise<Opened | Refusal> {
    const oidc = this.requireOidc();
    const stored = cookieState ? await this.transactions(() => this.redis.getdel(OIDC_KEY(cookieState))) : null;
    if (stored === TRANSACTIONS_DOWN) return TRANSACTIONS_UNAVAILABLE;
    if (!stored)
      return {
        status: 400,
        refused: 'Sign-in expired',
        detail: 'This sign-in was not started in this browser, or it took longer than 10 minutes. Start again.',
      };
    const t = JSON.parse(stored) as OidcTransaction & { next: string };
    let who: { iss: string; sub: string };
    try {
      who = await oidc.finish(redirectUri, callbackUrl, t);
    } catch (err) {
      this.logger.info({ err }, 'console OpenID Connect sign-in refused');
      return {
        status: 400,
        refused: 'Sign-in failed',
        detail: 'The identity provider’s answer did not check out (state, PKCE verifier, nonce or token). Start again.',
      };
    }
    const bound = await this.repo.findPrincipalByOidcAnyTenant(who.iss, who.sub);
    const principal = bound && (await this.usablePrincipal(bound.tenant_id, bound.id));
    if (!bound || !principal) {
      this.logger.info({ iss: who.iss, sub: who.sub }, 'console sign-in by an identity bound to no active principal');
      return {
        status: 403,
        refused: 'No Arbiter account',
        detail: `Your identity (${who.sub} at ${who.iss}) is not bound to an active principal. Ask an administrator to set oidc_issuer and oidc_subject on your principal.`,
      };
    }
    return this.open(bound.tenant_id, principal, 'oidc', t.next);
  }

  /**
   * A step on the sign-in transactions, which live in Redis only: Redis unreachable is TRANSACTIONS_DOWN (a 503 page),
   * never a 500, and never a sign-in that skips the transaction (docs/operations.md "The console").
   */
  private async transactions<T>(step: () => Promise<T>): Promise<T | typeof TRANSACTIONS_DOWN> {
    try {
      return await step();
    } catch (err) {
      this.logger.warn({ err }, 'console OpenID Connect sign-in unavailable: Redis could not be reached');
      return TRANSACTIONS_DOWN;
    }
  }

  // --- sessions ------------------------------------------------------------------------------

  /** The live session of a cookie, or null: unknown, ended, past its lifetime, or its principal no longer active. */
  async session(token: string): Promise<LiveSession | null> {
    const now = new Date();
    const session = await this.repo.findLiveSessionAnyTenant(hashToken(token), now);
    const principal = session && (await this.usablePrincipal(session.tenant_id, session.principal_id));
    if (!session || !principal) return null;
    return {
      credential: consoleCredentialFor(token),
      view: {
        principal: { id: principal.id, name: principal.name, kind: principal.kind, roles: principal.roles },
        tenant_id: session.tenant_id,
        permissions: principal.console_permissions.filter(isPermission),
        expires_at: session.expires_at.toISOString(),
      },
    };
  }

  /** Ends the session; the other services drop its credential from their caches at once. */
  async signOut(token: string): Promise<boolean> {
    const session = await this.repo.findLiveSessionAnyTenant(hashToken(token), new Date());
    if (!session) return false;
    await this.repo.endSession(session.tenant_id, session.id, new Date());
    try {
      await publishInvalidation(this.redis, { type: 'key', key_hash: session.credential_hash });
    } catch (err) {
      this.logger.warn({ err }, 'could not publish the end of a console session');
    }
    return true;
  }

  private async open(tenantId: TenantId, principal: PrincipalRow, method: 'link' | 'oidc', next: string): Promise<Opened> {
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.opts.sessionTtlSeconds * 1000);
    await this.repo.createSession(tenantId, {
      created_at: now,
      id: newId(CONSOLE_SESSION_ID_PREFIX),
      principal_id: principal.id,
      token_hash: hashToken(token),
      credential_hash: hashToken(consoleCredentialFor(token)),
      method,
      expires_at: expiresAt,
    });
    this.logger.info({ principal_id: principal.id, tenant_id: tenantId, method }, 'console session opened');
    return { token, expiresAt, maxAgeSeconds: this.opts.sessionTtlSeconds, next };
  }

  /** A principal a session may act as: active and human. */
  private async usablePrincipal(tenantId: TenantId, principalId: string): Promise<PrincipalRow | null> {
    const principal = await this.identity.findPrincipal(tenantId, principalId);
    return principal && principal.active && principal.kind === 'human' ? principal : null;
  }

  private requireOidc(): OidcClient {
    if (!this.opts.oidc) throw new AppError(404, 'not_found', 'OpenID Connect sign-in is not configured (OIDC_ISSUER)');
    return this.opts.oidc;
  }
}

const TRANSACTIONS_DOWN = Symbol('sign-in transactions unreachable');
const TRANSACTIONS_UNAVAILABLE: Refusal = {
  status: 503,
  refused: 'Single sign-on unavailable',
  detail: 'Sign-in cannot be completed right now. Try again in a few minutes, or ask an administrator for a sign-in link.',
};
const USED: Refusal = {
  status: 410,
  refused: 'Link already used',
  detail: 'A sign-in link works once. Ask an administrator for a new one.',
};
const INACTIVE: Refusal = { status: 403, refused: 'Sign-in refused', detail: 'This link’s principal is deactivated.' };

function linkRefusal(link: { used_at: Date | null; expires_at: Date } | null, now: Date): Refusal | null {
  if (!link) return { status: 404, refused: 'Unknown link', detail: 'This sign-in link is not valid. Ask an administrator for a new one.' };
  if (link.used_at) return USED;
  if (link.expires_at <= now)
    return { status: 410, refused: 'Link expired', detail: 'A sign-in link is valid for 10 minutes. Ask an administrator for a new one.' };
  return null;
}
