import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import {
  apiKeyPrefix,
  generateApiKey,
  hasPermission,
  hashApiKey,
  isConsoleSession,
  isPermission,
  publishInvalidation,
  type AuthenticatedIdentity,
  type InvalidationEvent,
  type TenantId,
} from '@arbiter/auth';
import { canonicalJson } from '@arbiter/canonical';
import { sensitiveSettingsProblem } from '@arbiter/sensitive';
import { tenantPolicyProblem } from '@arbiter/policy';
import { isUniqueViolation, newId } from '@arbiter/db';
import type { IdentityRepository } from '../repositories/identity.repository';
import type {
  ApiKey,
  CreateApiKeyBody,
  CreatedApiKey,
  CreatePrincipalBody,
  CreateTenantBody,
  Page,
  Principal,
  Tenant,
  TenantSettings,
  UpdatePrincipalBody,
  UpdateTenantBody,
} from '../models/identity';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../domain/errors';
import { retentionProblem } from '../domain/retention';
import { refusePlatformAdminPrincipal } from './platform-principal.service';
import { isEmailAddress } from '../domain/email-address';
import { presentKey, presentPrincipal, presentTenant } from '../presenters/identity';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import { applySignInChange, type SignInChange, type SignInFields } from '../domain/principal-sign-in';

/** docs/identity.md "Resources": an email address is a human's, and syntactically an address (domain/email-address.ts). */
function checkEmail(kind: string, email: string | undefined): void {
  if (email === undefined) return;
  if (kind !== 'human') throw badRequest('body.email: only human principals have an email address');
  if (!isEmailAddress(email)) throw badRequest('body.email: not a valid email address (local-part@domain, no spaces or names)');
}

/**
 * Told after a committed change the verdict gateway's state depends on (a principal's roles or
 * activity, the tenant's settings), so the tenant's revision moves (services/changes.service.ts).
 */
export type StateChanged = (tenantId: TenantId, type: string) => Promise<void>;

/**
 * Tenants, principals and API keys (docs/identity.md). Privilege boundaries (docs/identity.md,
 * "Privilege boundaries"): nobody reaches above what its own key holds. A tenant admin never sets
 * the ledger tier (`settings.rate_limit`), never grants a permission, scope or lifetime its own key
 * lacks, and never touches a platform admin's principal or keys; a key restricted to some scopes
 * changes nothing tenant-wide (tenant settings, principals).
 */
export class IdentityService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly stateChanged: StateChanged = async () => undefined,
    /** Checks a chat webhook URL as webhook destinations are checked; answers the problem, or null (docs/webhooks.md "Destinations"). */
    private readonly chatUrlProblem: (url: string) => Promise<string | null> = async () => null,
    /** RETENTION_MIN and RETENTION_MAX in milliseconds (docs/operations.md "Retention"). */
    private readonly retentionBounds: { min: number; max: number } = { min: 86_400_000, max: 3650 * 86_400_000 },
  ) {}

  // --- tenants -------------------------------------------------------------------------------

  async createTenant(caller: AuthenticatedIdentity, body: CreateTenantBody): Promise<Tenant> {
    // Services that take "an id or a slug" look the id up first: a slug written as an id would name another tenant.
    if (body.slug.startsWith('tnt-')) throw badRequest('slug must not start with tnt-: that is how tenant ids are written');
    await this.checkSettings(body.settings);
    try {
      const row = await this.repo.createTenant({
        id: newId('tnt-'),
        slug: body.slug,
        name: body.name,
        settings: body.settings ?? {},
        created_by: caller.principal.id,
      });
      return presentTenant(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A tenant with slug ${body.slug} already exists`);
      throw err;
    }
  }

  /** Platform admins see every tenant; anyone else sees their own. */
  async listTenants(caller: AuthenticatedIdentity, q: PageQuery): Promise<Page<Tenant>> {
    const { limit, after } = readPage(q);
    const only = hasPermission(caller, 'platform_admin') ? undefined : caller.tenant_id;
    const admin = hasPermission(caller, 'admin');
    return toPage(await this.repo.listTenants(limit, after, only), limit, (row) => presentTenant(row, admin));
  }

  async getTenant(caller: AuthenticatedIdentity, id: string): Promise<Tenant> {
    return presentTenant(await this.visibleTenant(caller, id), hasPermission(caller, 'admin'));
  }

  async updateTenant(caller: AuthenticatedIdentity, id: string, body: UpdateTenantBody): Promise<Tenant> {
    const tenant = await this.visibleTenant(caller, id);
    let settings = body.settings;
    if (!hasPermission(caller, 'platform_admin')) {
      if (!hasPermission(caller, 'admin')) throw forbidden('Missing permission: admin');
      refuseScopeRestricted(caller, 'change the tenant');
      // docs/identity.md: the ledger tier is the platform's to set. Sending the stored value back
      // unchanged is not setting it; leaving it out keeps it.
      const stored = (tenant.settings as TenantSettings).rate_limit;
      if (settings?.rate_limit !== undefined && !sameJson(settings.rate_limit, stored)) {
        throw forbidden('settings.rate_limit (the ledger tier) is set by platform admins only');
      }
      if (settings && stored !== undefined) settings = { ...settings, rate_limit: stored };
    }
    await this.checkSettings(settings);
    const row = await this.repo.updateTenant(tenant.id, { name: body.name, settings });
    await this.invalidate({ type: 'tenant', tenant_id: id });
    await this.stateChanged(tenant.id, 'tenant.updated');
    return presentTenant(row);
  }

  /**
   * What the body's types cannot say about settings: each chat webhook URL is a destination webhooks may reach;
   * sensitive paths are well-formed and listed once (docs/identity.md "Sensitive fields").
   */
  private async checkSettings(settings: TenantSettings | undefined): Promise<void> {
    // What the verdict gateway's engine would refuse to compile: refused here, so a tenant's policy never freezes on it.
    const policy = settings ? tenantPolicyProblem({ default_verdict: settings.default_verdict }) : null;
    if (policy) throw badRequest(`body.settings.${policy}`);
    const retention = retentionProblem(settings?.retention, this.retentionBounds.min, this.retentionBounds.max);
    if (retention) throw retention.status === 422 ? unprocessable(retention.detail) : badRequest(retention.detail);
    const sensitive = settings ? sensitiveSettingsProblem(settings) : null;
    if (sensitive) throw badRequest(`body.settings.${sensitive.at}: ${sensitive.problem}`);
    const hooks = settings?.approval_notifications?.chat_webhooks ?? [];
    for (const [i, hook] of hooks.entries()) {
      const problem = await this.chatUrlProblem(hook.url);
      if (problem) throw badRequest(`body.settings.approval_notifications.chat_webhooks.${i}.url: ${problem}`);
    }
  }

  private async visibleTenant(caller: AuthenticatedIdentity, id: string) {
    if (!hasPermission(caller, 'platform_admin') && id !== caller.tenant_id) throw notFound('Tenant', id);
    const row = await this.repo.findTenant(id);
    if (!row) throw notFound('Tenant', id);
    return row;
  }

  /** The tenant a call acts in: a platform admin may name one; a tenant admin acts in its own. */
  private async targetTenant(caller: AuthenticatedIdentity, tenantId: string | undefined): Promise<TenantId> {
    if (tenantId === undefined || tenantId === caller.tenant_id) return caller.tenant_id;
    if (!hasPermission(caller, 'platform_admin')) throw forbidden('Only a platform admin may act in another tenant (tenant_id)');
    const tenant = await this.repo.findTenant(tenantId);
    if (!tenant) throw notFound('Tenant', tenantId);
    return tenant.id;
  }

  /** Internal: a tenant's id by slug, for services addressed by slug (verdict JWKS). */
  async tenantBySlug(slug: string): Promise<{ id: string; slug: string } | null> {
    const row = await this.repo.findTenantBySlug(slug);
    return row ? { id: row.id, slug: row.slug } : null;
  }

  // --- principals ----------------------------------------------------------------------------

  async createPrincipal(caller: AuthenticatedIdentity, body: CreatePrincipalBody): Promise<Principal> {
    const tenantId = await this.targetTenant(caller, body.tenant_id);
    if (!hasPermission(caller, 'platform_admin')) refuseScopeRestricted(caller, 'create principals');
    checkEmail(body.kind, body.email);
    const signIn = signInFor(caller, body.kind, { oidc_issuer: null, oidc_subject: null, console_permissions: [] }, body);
    const row = await this.boundOnce(() =>
      this.repo.createPrincipal(tenantId, {
        id: newId(body.kind === 'agent' ? 'agn-' : 'hum-'),
        kind: body.kind,
        name: body.name,
        roles: unique(body.roles ?? []),
        email: body.email ?? null,
        ...signIn,
        created_by: caller.principal.id,
      }),
    );
    await this.stateChanged(tenantId, 'principal.created');
    return presentPrincipal(row);
  }

  async listPrincipals(caller: AuthenticatedIdentity, q: PageQuery & { tenant_id?: string }): Promise<Page<Principal>> {
    const tenantId = await this.targetTenant(caller, q.tenant_id);
    const { limit, after } = readPage(q);
    return toPage(await this.repo.listPrincipals(tenantId, limit, after), limit, presentPrincipal);
  }

  async getPrincipal(caller: AuthenticatedIdentity, id: string, tenantId?: string): Promise<Principal> {
    const tenant = await this.targetTenant(caller, tenantId ?? (await this.tenantOfPrincipalFor(caller, id)));
    const row = await this.repo.findPrincipal(tenant, id);
    if (!row) throw notFound('Principal', id);
    return presentPrincipal(row);
  }

  async updatePrincipal(caller: AuthenticatedIdentity, id: string, body: UpdatePrincipalBody): Promise<Principal> {
    const tenant = await this.targetTenant(caller, await this.tenantOfPrincipalFor(caller, id));
    const current = await this.repo.findPrincipal(tenant, id);
    if (!current) throw notFound('Principal', id);
    if (body.email !== undefined && body.email !== null) checkEmail(current.kind, body.email);
    if (id === caller.principal.id && body.active === false) throw unprocessable('A principal cannot deactivate itself');
    if (!hasPermission(caller, 'platform_admin')) {
      refuseScopeRestricted(caller, 'change principals');
      await refusePlatformAdminPrincipal(this.repo, tenant, id, 'change');
    }
    const signIn = signInFor(caller, current.kind, current, body);
    const row = await this.boundOnce(() =>
      this.repo.updatePrincipal(tenant, id, {
        ...(body.active !== undefined ? { active: body.active } : {}),
        ...(body.roles !== undefined ? { roles: unique(body.roles) } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...signIn,
      }),
    );
    if (body.active === false) await this.repo.endConsoleAccess(tenant, id, new Date());
    await this.invalidate({ type: 'principal', principal_id: id });
    await this.stateChanged(tenant, 'principal.updated');
    return presentPrincipal(row);
  }

  /** One principal per OpenID Connect identity across the platform: the unique index decides a race (409). */
  private async boundOnce<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('This oidc_issuer and oidc_subject are already bound to another principal');
      throw err;
    }
  }

  /**
   * Platform admins address principals and keys of any tenant by id; for anyone else the
   * lookup stays inside their own tenant, so another tenant's ids answer 404.
   */
  private async tenantOfPrincipalFor(caller: AuthenticatedIdentity, principalId: string): Promise<string | undefined> {
    if (!hasPermission(caller, 'platform_admin')) return undefined;
    return (await this.repo.findPrincipalAnyTenant(principalId))?.tenant_id;
  }

  // --- API keys ------------------------------------------------------------------------------

  async createKey(caller: AuthenticatedIdentity, body: CreateApiKeyBody): Promise<CreatedApiKey> {
    const tenantId = await this.targetTenant(caller, body.tenant_id);
    const principal = await this.repo.findPrincipal(tenantId, body.principal_id);
    if (!principal) throw notFound('Principal', body.principal_id);
    // A key never carries a permission its creator's key does not hold (admin holds every
    // permission inside the tenant, so in practice: platform_admin needs a platform admin).
    const lacking = body.permissions.find((p) => !hasPermission(caller, p));
    if (lacking) throw forbidden(`Missing permission: ${lacking} (a key cannot grant a permission its creator lacks)`);
    if (body.expires_at && body.expires_at.getTime() <= Date.now()) throw unprocessable('expires_at must be in the future');
    // A console session never mints a key that outlives it, a platform admin's included (ADR 0029).
    if (isConsoleSession(caller)) refuseOutliving(caller, body.expires_at);
    if (!hasPermission(caller, 'platform_admin')) {
      const scopes = body.scope_ids ?? [];
      if (caller.scope_ids.length && (!scopes.length || scopes.some((s) => !caller.scope_ids.includes(s)))) {
        throw forbidden(
          `scope_ids must name only scopes of the creating key (${caller.scope_ids.join(', ')}); empty would mean every scope`,
        );
      }
      refuseOutliving(caller, body.expires_at);
      await refusePlatformAdminPrincipal(this.repo, tenantId, principal.id, 'mint keys for');
      if (caller.scope_ids.length && body.permissions.some((p) => p === 'approve' || p === 'admin')) {
        await this.refuseWiderDecider(tenantId, principal, caller.scope_ids);
      }
    }
    const key = generateApiKey();
    const row = await this.repo.createKey(tenantId, {
      id: newId('key-'),
      principal_id: principal.id,
      key_hash: hashApiKey(key),
      key_prefix: apiKeyPrefix(key),
      permissions: unique(body.permissions),
      scope_ids: unique(body.scope_ids ?? []),
      expires_at: body.expires_at ?? null,
      created_by: caller.principal.id,
    });
    return { ...presentKey(row), key };
  }

  async listKeys(caller: AuthenticatedIdentity, q: PageQuery & { tenant_id?: string; principal_id?: string }): Promise<Page<ApiKey>> {
    const tenantId = await this.targetTenant(caller, q.tenant_id);
    const { limit, after } = readPage(q);
    // A key restricted to some scopes sees the keys it could revoke: those restricted to scopes among its own.
    const within = caller.scope_ids.length ? caller.scope_ids : undefined;
    return toPage(await this.repo.listKeys(tenantId, limit, after, q.principal_id, within), limit, presentKey);
  }

  async revokeKey(caller: AuthenticatedIdentity, id: string): Promise<ApiKey> {
    const anyTenant = hasPermission(caller, 'platform_admin') ? (await this.repo.findKeyAnyTenant(id))?.tenant_id : undefined;
    const tenantId = anyTenant ?? caller.tenant_id;
    const row = await this.repo.findKey(tenantId, id);
    if (!row) throw notFound('API key', id);
    if (!hasPermission(caller, 'platform_admin')) {
      if (row.permissions.includes('platform_admin')) throw forbidden('Only a platform admin may revoke a key holding platform_admin');
      if (caller.scope_ids.length && (!row.scope_ids.length || row.scope_ids.some((s) => !caller.scope_ids.includes(s)))) {
        throw forbidden('A key restricted to some scopes may revoke only keys restricted to scopes among its own');
      }
    }
    const revoked = row.revoked_at ? row : await this.repo.revokeKey(tenantId, id, new Date());
    await this.invalidate({ type: 'key', key_hash: row.key_hash });
    return presentKey(revoked);
  }

  /**
   * A key restricted to some scopes mints `approve` (or `admin`) keys only for principals whose standing as a
   * decider lies within those scopes (docs/identity.md "Privilege boundaries"): not for one holding a live
   * `approve` or `admin` key that reaches another scope, nor for one named (by id or role) among the deciders
   * of an active rule in another scope. Otherwise the restricted admin would act, and be recorded, as a decider
   * whose authority reaches beyond its own scopes.
   */
  private async refuseWiderDecider(
    tenantId: TenantId,
    principal: { id: string; roles: string[]; console_permissions: string[] },
    scopeIds: string[],
  ): Promise<void> {
    const wider =
      // A console session has no scope restriction: one that may approve decides in every scope.
      principal.console_permissions.some((p) => p === 'approve' || p === 'admin') ||
      (await this.repo.holdsKeyBeyond(tenantId, principal.id, ['approve', 'admin', 'platform_admin'], scopeIds, new Date())) ||
      (await this.repo.decidesBeyond(tenantId, [principal.id, ...principal.roles], scopeIds));
    if (wider) {
      throw forbidden(
        `A key restricted to some scopes cannot mint an approve or admin key for ${principal.id}: it decides beyond those scopes (${scopeIds.join(', ')})`,
      );
    }
  }

  /**
   * Other services drop cached keys on this message; their cache lifetime (at most 30 s) bounds
   * staleness if Redis is down, so a failed publish does not fail the change.
   */
  private async invalidate(event: InvalidationEvent): Promise<void> {
    try {
      await publishInvalidation(this.redis, event);
    } catch (err) {
      this.logger.warn({ err, event }, 'could not publish auth invalidation');
    }
  }
}

/**
 * The sign-in fields after a change (422 when malformed); console permissions follow the rule of minting a key:
 * never one the caller's own key lacks, and the OpenID Connect identity is a platform admin's to name
 * (docs/identity.md "Privilege boundaries").
 */
function signInFor(caller: AuthenticatedIdentity, kind: string, current: SignInFields, change: SignInChange): Partial<SignInFields> {
  // The identity provider is the platform's, and (issuer, subject) is unique across it: which tenant a person signs in
  // to is the platform's decision, so only a platform admin names the pair, to set, change or remove it.
  if ((change.oidc_issuer !== undefined || change.oidc_subject !== undefined) && !hasPermission(caller, 'platform_admin')) {
    throw forbidden('Missing permission: platform_admin (only a platform admin sets, changes or removes oidc_issuer and oidc_subject)');
  }
  const next = applySignInChange(kind, current, change);
  if (typeof next === 'string') throw unprocessable(next);
  const lacking = change.console_permissions?.find((p) => !isPermission(p) || !hasPermission(caller, p));
  if (lacking) throw forbidden(`Missing permission: ${lacking} (console_permissions cannot grant a permission the caller lacks)`);
  return {
    ...(change.oidc_issuer !== undefined ? { oidc_issuer: next.oidc_issuer, oidc_subject: next.oidc_subject } : {}),
    ...(change.console_permissions !== undefined ? { console_permissions: next.console_permissions } : {}),
  };
}

/** A key that expires (or a console session) mints only keys that expire no later than itself. */
function refuseOutliving(caller: AuthenticatedIdentity, expiresAt: Date | undefined): void {
  if (caller.expires_at && (!expiresAt || expiresAt.getTime() > Date.parse(caller.expires_at))) {
    throw forbidden(`expires_at must be no later than the creating key's own (${caller.expires_at})`);
  }
}

/** Tenant-wide changes need a key that reaches every scope of the tenant. */
function refuseScopeRestricted(caller: AuthenticatedIdentity, action: string): void {
  if (caller.scope_ids.length) throw forbidden(`A key restricted to some scopes cannot ${action}: that reaches every scope of the tenant`);
}

function sameJson(a: unknown, b: unknown): boolean {
  return b !== undefined && canonicalJson(a) === canonicalJson(b);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
