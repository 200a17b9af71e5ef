// `arbiter tenants | principals | api-keys` (docs/cli.md "Tenants, principals and API keys"): the
// registry's identity administration (docs/identity.md) through the SDK's registry client. Lists follow
// every page; --json prints the registry's own resources (a list as an array).
import type { RegistryBody, RegistryClient, RegistryPage } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';

interface TenantRow {
  id: string;
  slug: string;
  name: string;
  status: string;
}
interface PrincipalRow {
  id: string;
  kind: string;
  name: string;
  roles: string[];
  status: string;
}
interface ApiKeyRow {
  id: string;
  principal_id: string;
  key_prefix: string;
  permissions: string[];
  scope_ids: string[];
  status: string;
  expires_at: string | null;
}

const tenantLine = (t: TenantRow) => `${t.id}  ${t.slug}  ${t.name}  ${t.status}`;
const principalLine = (p: PrincipalRow) => `${p.id}  ${p.kind}  ${p.name}  ${p.status}  roles: ${p.roles.join(', ') || '-'}`;
const apiKeyLine = (k: ApiKeyRow) =>
  `${k.id}  ${k.principal_id}  ${k.key_prefix}…  ${k.status}  permissions: ${k.permissions.join(', ')}  scopes: ${k.scope_ids.join(', ') || 'all'}${k.expires_at ? `  expires ${k.expires_at}` : ''}`;

/** Every item of a list, printed one per line (or as a JSON array). */
async function printAll<T>(
  ctx: CommandContext,
  registry: RegistryClient,
  page: (cursor: string | undefined) => Promise<RegistryPage<T>>,
  line: (item: T) => string,
  what: string,
) {
  const items = await registry.all(page);
  ctx.print(items, items.length ? items.map(line).join('\n') : `no ${what}`);
  return EXIT.ok;
}

/** A JSON object inline (`{…}`) or in a file (or `-` for stdin). */
async function jsonObject(ctx: CommandContext, source: string, what: string): Promise<Record<string, unknown>> {
  let value: unknown;
  if (/^\s*[{[]/.test(source)) {
    try {
      value = JSON.parse(source);
    } catch (err) {
      throw new CliError(`the ${what} is not JSON: ${(err as Error).message}`);
    }
  } else {
    value = await ctx.readJson(source, what);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`the ${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

// --- tenants ---

export interface TenantCreateOptions extends ServiceFlags {
  name?: string;
  settings?: string;
}
export interface TenantUpdateOptions extends ServiceFlags {
  name?: string;
  settings?: string;
}

export async function listTenants(ctx: CommandContext, opts: ServiceFlags): Promise<number> {
  const registry = ctx.registry(opts, true, 'admin');
  return printAll(ctx, registry, (cursor) => registry.listTenants({ cursor, limit: 1000 }), tenantLine, 'tenants');
}

export async function createTenant(ctx: CommandContext, slug: string, opts: TenantCreateOptions): Promise<number> {
  const body: RegistryBody<'CreateTenant'> = { slug, name: opts.name ?? slug };
  if (opts.settings) body.settings = (await jsonObject(ctx, opts.settings, 'settings')) as RegistryBody<'CreateTenant'>['settings'];
  const tenant = await ctx.registry(opts, true, 'admin').createTenant(body);
  ctx.print(tenant, `tenant ${tenant.id} created: ${tenant.slug} (${tenant.name})`);
  return EXIT.ok;
}

export async function getTenant(ctx: CommandContext, id: string, opts: ServiceFlags): Promise<number> {
  const tenant = await ctx.registry(opts, true, 'admin').getTenant(id);
  ctx.print(
    tenant,
    `${tenantLine(tenant)}\nsettings: ${JSON.stringify(tenant.settings)}\ncreated ${tenant.created_at} by ${tenant.created_by ?? '-'}`,
  );
  return EXIT.ok;
}

export async function updateTenant(ctx: CommandContext, id: string, opts: TenantUpdateOptions): Promise<number> {
  const body: RegistryBody<'UpdateTenant'> = {};
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.settings) body.settings = (await jsonObject(ctx, opts.settings, 'settings')) as RegistryBody<'UpdateTenant'>['settings'];
  if (!Object.keys(body).length) throw new CliError('nothing to change: pass --name or --settings');
  const tenant = await ctx.registry(opts, true, 'admin').updateTenant(id, body);
  ctx.print(tenant, `tenant ${tenant.id} updated: ${tenant.slug} (${tenant.name})`);
  return EXIT.ok;
}

// --- principals ---

export interface PrincipalListOptions extends ServiceFlags {
  tenant?: string;
}
/** A human's console sign-in (docs/identity.md "Console sign-in"). */
interface SignInOptions {
  consolePermission?: string[];
  oidcIssuer?: string;
  oidcSubject?: string;
}
export interface PrincipalCreateOptions extends ServiceFlags, SignInOptions {
  kind: string;
  name: string;
  role?: string[];
  tenant?: string;
}
export interface PrincipalUpdateOptions extends ServiceFlags, SignInOptions {
  name?: string;
  role?: string[];
  /** false with --no-roles (commander's negated option). */
  roles?: boolean;
  /** false with --no-console-permissions. */
  consolePermissions?: boolean;
  /** false with --no-oidc: unbinds the OpenID Connect identity. */
  oidc?: boolean;
}

/** --oidc-issuer and --oidc-subject go together; --console-permission (repeatable) replaces the set. */
function signInChanges(opts: SignInOptions): Pick<RegistryBody<'CreatePrincipal'>, 'oidc_issuer' | 'oidc_subject' | 'console_permissions'> {
  if ((opts.oidcIssuer === undefined) !== (opts.oidcSubject === undefined))
    throw new CliError('--oidc-issuer and --oidc-subject go together');
  return {
    ...(opts.oidcIssuer !== undefined ? { oidc_issuer: opts.oidcIssuer, oidc_subject: opts.oidcSubject } : {}),
    ...(opts.consolePermission?.length
      ? { console_permissions: opts.consolePermission as NonNullable<RegistryBody<'CreatePrincipal'>['console_permissions']> }
      : {}),
  };
}

export async function listPrincipals(ctx: CommandContext, opts: PrincipalListOptions): Promise<number> {
  const registry = ctx.registry(opts, true, 'admin');
  return printAll(
    ctx,
    registry,
    (cursor) => registry.listPrincipals({ cursor, limit: 1000, tenant_id: opts.tenant }),
    principalLine,
    'principals',
  );
}

export async function createPrincipal(ctx: CommandContext, opts: PrincipalCreateOptions): Promise<number> {
  if (opts.kind !== 'agent' && opts.kind !== 'human') throw new CliError(`--kind must be agent or human, not ${opts.kind}`);
  const principal = await ctx
    .registry(opts, true, 'admin')
    .createPrincipal({ kind: opts.kind, name: opts.name, roles: opts.role, tenant_id: opts.tenant, ...signInChanges(opts) });
  ctx.print(
    principal,
    `principal ${principal.id} created in ${principal.tenant_id}: ${principal.kind} ${principal.name}, roles: ${principal.roles.join(', ') || '-'}`,
  );
  return EXIT.ok;
}

export async function getPrincipal(ctx: CommandContext, id: string, opts: ServiceFlags): Promise<number> {
  const p = await ctx.registry(opts, true, 'admin').getPrincipal(id);
  ctx.print(p, `${principalLine(p)}\ntenant ${p.tenant_id}, created ${p.created_at} by ${p.created_by ?? '-'}`);
  return EXIT.ok;
}

/** update, activate and deactivate: PATCH /principals/{id}. */
export async function updatePrincipal(
  ctx: CommandContext,
  id: string,
  body: RegistryBody<'UpdatePrincipal'>,
  opts: ServiceFlags,
): Promise<number> {
  if (!Object.keys(body).length) throw new CliError('nothing to change: pass --name, --role, --no-roles or a console option');
  const p = await ctx.registry(opts, true, 'admin').updatePrincipal(id, body);
  ctx.print(p, `principal ${p.id} updated: ${principalLine(p)}`);
  return EXIT.ok;
}

export function principalChanges(opts: PrincipalUpdateOptions): RegistryBody<'UpdatePrincipal'> {
  const noRoles = opts.roles === false;
  if (noRoles && opts.role?.length) throw new CliError('--role and --no-roles exclude each other');
  if (opts.consolePermissions === false && opts.consolePermission?.length) {
    throw new CliError('--console-permission and --no-console-permissions exclude each other');
  }
  if (opts.oidc === false && opts.oidcIssuer !== undefined) throw new CliError('--oidc-issuer and --no-oidc exclude each other');
  const body: RegistryBody<'UpdatePrincipal'> = { ...signInChanges(opts) };
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.role?.length) body.roles = opts.role;
  if (noRoles) body.roles = [];
  if (opts.consolePermissions === false) body.console_permissions = [];
  if (opts.oidc === false) Object.assign(body, { oidc_issuer: null, oidc_subject: null });
  return body;
}

/** `arbiter console link`: POST /principals/{id}/console-links, a one-time sign-in link (docs/identity.md "Console sign-in"). */
export async function consoleLink(ctx: CommandContext, opts: ServiceFlags & { principal: string }): Promise<number> {
  const link = await ctx.registry(opts, true, 'admin').createConsoleLink(opts.principal);
  ctx.print(link, `${link.url}\n(one use, valid until ${link.expires_at})`);
  return EXIT.ok;
}

// --- API keys ---

export interface ApiKeyListOptions extends ServiceFlags {
  principal?: string;
  tenant?: string;
}
export interface ApiKeyCreateOptions extends ServiceFlags {
  principal: string;
  permission: string[];
  scope?: string[];
  expiresAt?: string;
  tenant?: string;
  /** Write the plaintext key to this file (mode 0600) instead of printing it. */
  out?: string;
}

export async function listApiKeys(ctx: CommandContext, opts: ApiKeyListOptions): Promise<number> {
  const registry = ctx.registry(opts, true, 'admin');
  return printAll(
    ctx,
    registry,
    (cursor) => registry.listApiKeys({ cursor, limit: 1000, principal_id: opts.principal, tenant_id: opts.tenant }),
    apiKeyLine,
    'API keys',
  );
}

/** The plaintext key is printed here and never again: the registry keeps only its hash. */
export async function createApiKey(ctx: CommandContext, opts: ApiKeyCreateOptions): Promise<number> {
  const created = await ctx.registry(opts, true, 'admin').createApiKey({
    principal_id: opts.principal,
    permissions: opts.permission as RegistryBody<'CreateApiKey'>['permissions'],
    scope_ids: opts.scope,
    expires_at: opts.expiresAt,
    tenant_id: opts.tenant,
  });
  if (opts.out) {
    // Kept off the terminal, its scrollback and CI logs: only the owner can read the file.
    await ctx.io.writeFile(opts.out, `${created.key}\n`, { secret: true }).catch((err: Error) => {
      throw new CliError(
        `API key ${created.id} was created, but ${opts.out} could not be written (${err.message}): revoke it with arbiter api-keys revoke ${created.id}`,
        EXIT.failed,
      );
    });
    const { key: _key, ...shown } = created;
    ctx.print(
      { ...shown, key_file: opts.out },
      `API key ${created.id} created: ${apiKeyLine(created)}\nthe key is in ${opts.out} (mode 0600; the registry keeps only its hash)`,
    );
    return EXIT.ok;
  }
  ctx.print(
    created,
    `API key ${created.id} created: ${apiKeyLine(created)}\nthe key, shown this once (store it now; the registry keeps only its hash):\n${created.key}`,
  );
  return EXIT.ok;
}

export async function revokeApiKey(ctx: CommandContext, id: string, opts: ServiceFlags): Promise<number> {
  const key = await ctx.registry(opts, true, 'admin').revokeApiKey(id);
  ctx.print(key, `API key ${key.id} revoked: ${apiKeyLine(key)}`);
  return EXIT.ok;
}
