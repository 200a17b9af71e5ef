import type { RetentionSettings } from './retention';
/** Request and response shapes of identity (docs/identity.md); tsoa validates and documents them. */

export type Permission =
  'read' | 'write' | 'manage_rules' | 'manage_invariants' | 'approve' | 'check' | 'seal' | 'admin' | 'platform_admin';

export interface ScopeFieldSchema {
  /** When present, a scope value must be one of these. */
  allowed_values?: Array<string | number | boolean>;
  type?: 'string' | 'number' | 'boolean';
}

export interface ContextFieldSchema {
  type?: string;
  description?: string;
  allowed_values?: Array<string | number | boolean>;
}

export interface RateLimitSettings {
  /** standard: 1000 requests per minute, burst 100 (docs/ledger-formats.md "Limits"). */
  tier?: 'standard' | 'enterprise';
  /** @isInt @minimum 1 */
  requests_per_minute?: number;
  /** @isInt @minimum 1 */
  burst?: number;
}

/** Tenant settings read by the verdict gateway and the ledger (docs/verdicts.md). */
export interface TenantSettings {
  scope_schema?: { fields: { [name: string]: ScopeFieldSchema } };
  context_schema?: { fields: { [name: string]: ContextFieldSchema } };
  /** Verdict when no rule fires; `allowed` unless set. */
  default_verdict?: string;
  /**
   * @isInt
   * @minimum 1
   * @maximum 3600
   */
  verdict_ttl_seconds?: number;
  /**
   * @isInt
   * @minimum 1
   * @maximum 100
   */
  max_resolve_rounds?: number;
  /**
   * The ledger tier: set by platform admins only (a tenant admin sending a different value gets
   * 403; leaving it out of a PATCH keeps it).
   */
  rate_limit?: RateLimitSettings;
  /** Who hears of new and escalated approvals besides the deciders' email (docs/approvals.md "Notifications"). */
  approval_notifications?: ApprovalNotificationSettings;
  /** How long consultations, webhook deliveries and events are kept (docs/operations.md "Retention"). */
  retention?: RetentionSettings;
  /**
   * Dot paths whose values are never stored in the clear (docs/identity.md "Sensitive fields"): `parameters.<path>`
   * or `context.<fact name>`; no duplicates.
   * @maxItems 50
   */
  sensitive_fields?: string[];
  /**
   * The path whose value (a string or a number) names the data subject of a check: its sensitive values are kept
   * under that subject's key, which an erasure destroys. It must be one of `sensitive_fields` (docs/identity.md
   * "Sensitive fields").
   */
  data_subject_field?: string;
}

export interface ApprovalNotificationSettings {
  /**
   * Chat incoming webhooks that get one message per new approval and per escalation (no approve button).
   * @maxItems 20
   */
  chat_webhooks?: ChatWebhook[];
}

export interface ChatWebhook {
  /**
   * The incoming webhook's URL: http or https, a public address (the rules of webhook destinations, docs/webhooks.md "Destinations").
   * @minLength 1
   * @maxLength 2048
   */
  url: string;
  /** `slack`: Slack's incoming-webhook JSON (`text`, `blocks`); `teams`: a Microsoft Teams MessageCard. */
  format: 'slack' | 'teams';
}

export interface Tenant {
  /** `tnt-` prefix */
  id: string;
  slug: string;
  name: string;
  settings: TenantSettings;
  status: 'active';
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

export interface CreateTenantBody {
  /** @minLength 1 @maxLength 200 */
  name: string;
  /**
   * Lowercase letters, digits and dashes; unique; not starting with `tnt-` (how tenant ids are written: where a
   * service takes an id or a slug, the id is looked up first).
   * @pattern ^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$
   */
  slug: string;
  settings?: TenantSettings;
}

export interface UpdateTenantBody {
  /** @minLength 1 @maxLength 200 */
  name?: string;
  /**
   * Replaces the settings object as a whole; for a caller without platform_admin, except
   * `rate_limit`, which is kept when left out (and refused with 403 when changed).
   */
  settings?: TenantSettings;
}

export interface Principal {
  /** `agn-` (agent) or `hum-` (human) prefix */
  id: string;
  tenant_id: string;
  kind: 'agent' | 'human';
  name: string;
  /** Role ids, `role-<name>` */
  roles: string[];
  active: boolean;
  status: 'active' | 'deactivated';
  /** Where approval notifications are sent (human principals only); null when none. */
  email: string | null;
  /** The OpenID Connect issuer bound to a human principal (docs/identity.md "Console sign-in"); null when none. */
  oidc_issuer: string | null;
  /** The subject (`sub`) at that issuer; set together with oidc_issuer. */
  oidc_subject: string | null;
  /** What a console session of this principal holds; empty: it may sign in and do nothing. */
  console_permissions: Permission[];
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

/**
 * An OpenID Connect issuer identifier: an http(s) URL (docs/identity.md "Console sign-in").
 * @pattern ^https?://[^\s]+$
 * @maxLength 2000
 * @example "https://login.example.com"
 */
export type OidcIssuer = string;

/**
 * The `sub` claim of the person's ID tokens at that issuer.
 * @minLength 1
 * @maxLength 255
 * @example "00u1a2b3c4"
 */
export type OidcSubject = string;

export interface CreatePrincipalBody {
  kind: 'agent' | 'human';
  /** @minLength 1 @maxLength 200 */
  name: string;
  /** @maxItems 100 */
  roles?: RoleId[];
  /** Platform admins name the tenant; tenant admins create in their own. */
  tenant_id?: string;
  /** Human principals only: where approval notifications are sent (docs/approvals.md "Notifications"). @maxLength 254 */
  email?: string;
  /** Human principals only; together with oidc_subject; unique with it across the platform (409). Platform admins only (403). */
  oidc_issuer?: OidcIssuer;
  /** Human principals only; together with oidc_issuer. */
  oidc_subject?: OidcSubject;
  /** Human principals only; each held by the creating key (403 otherwise). @maxItems 9 */
  console_permissions?: Permission[];
}

export interface UpdatePrincipalBody {
  active?: boolean;
  /** @maxItems 100 */
  roles?: RoleId[];
  /** @minLength 1 @maxLength 200 */
  name?: string;
  /** Human principals only; null removes it. @maxLength 254 */
  email?: string | null;
  /** Sent together with oidc_subject; both null unbind the principal's OpenID Connect identity. Platform admins only (403). */
  oidc_issuer?: OidcIssuer | null;
  oidc_subject?: OidcSubject | null;
  /** Replaces them as a whole; human principals only; each held by the calling key (403 otherwise). @maxItems 9 */
  console_permissions?: Permission[];
}

/**
 * @pattern ^role-[a-z0-9][a-z0-9_.-]{0,62}$
 * @example "role-cfo"
 */
export type RoleId = string;

export interface ApiKey {
  /** `key-` prefix */
  id: string;
  tenant_id: string;
  principal_id: string;
  /** The first characters of the key, to recognise it. */
  key_prefix: string;
  permissions: Permission[];
  /** Empty means every scope of the tenant. */
  scope_ids: string[];
  expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

export interface CreatedApiKey extends ApiKey {
  /** The plaintext key, `ak-<hex>`: shown once, stored only as a hash. */
  key: string;
}

export interface CreateApiKeyBody {
  principal_id: string;
  /** Each held by the creating key (403 otherwise). @minItems 1 */
  permissions: Permission[];
  /** Empty or absent: every scope. A creating key restricted to some scopes must name a subset of its own (403). */
  scope_ids?: string[];
  /**
   * ISO 8601 timestamp with `Z` or an offset (else 400), in the future; no later than the creating key's own when that
   * expires (403).
   */
  expires_at?: Date;
  tenant_id?: string;
}

export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null when done. */
  next_cursor: string | null;
}

/** Error body (docs/registry.md "Errors"). */
export interface ErrorBody {
  detail: string;
}

/** A one-time console sign-in link (docs/identity.md "Console sign-in"): valid 10 minutes, for one use. */
export interface ConsoleLinkCreated {
  /** `<registry public URL>/console/auth/link/<token>`; the token is stored only as its SHA-256. */
  url: string;
  expires_at: string;
}
