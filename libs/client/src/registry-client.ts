// The registry's client (docs/registry.md and, for identity, docs/identity.md), typed by the generated paths
// of apps/registry/openapi.json. The methods cover what agents, operators and the examples need; every
// other operation is one typed call away on `raw`.
import type { Client } from 'openapi-fetch';
import { createServiceClient, cursorPages, unwrap, type ServiceClientOptions } from './http';
import type { RegistryPaths, RotationMode, Rule, RuleBody, RuleStatusFilter, ScopeDetails, WebhookKeyRotation, WebhookKeySet } from './types';
import type { components } from './generated/registry';

type S = components['schemas'];

export type RegistryClientOptions = ServiceClientOptions;

export interface RegistryClient {
  readonly service: 'registry';
  readonly baseUrl: string;
  readonly raw: Client<RegistryPaths>;
  createTenant(body: S['CreateTenantBody']): Promise<S['Tenant']>;
  createPrincipal(body: S['CreatePrincipalBody']): Promise<S['Principal']>;
  /** The plaintext key is in the answer's `key`, and only there. */
  createApiKey(body: S['CreateApiKeyBody']): Promise<S['CreatedApiKey']>;
  createScope(body: S['CreateScopeBody']): Promise<S['Scope']>;
  /** GET /scopes/{id}: the scope, its selector and its entry counts. */
  getScope(scopeId: string): Promise<ScopeDetails>;
  createRule(scopeId: string, body: RuleBody): Promise<Rule>;
  /** PUT: a new version whose content is `body` (omitted optional fields take their defaults, docs/registry.md "Rules and versions"). */
  updateRule(scopeId: string, ruleId: string, body: RuleBody): Promise<Rule>;
  /** PATCH …/archive (idempotent): the rule leaves the normative state. */
  archiveRule(scopeId: string, ruleId: string): Promise<Rule>;
  /** Every rule of a scope (default the active ones), following next_cursor, oldest first. */
  listRules(scopeId: string, opts?: { status?: RuleStatusFilter }): Promise<Rule[]>;
  /** GET /.well-known/webhook-key (no authentication): the current key and every key ever used. */
  webhookKeys(): Promise<WebhookKeySet>;
  rotateWebhookKey(mode: RotationMode): Promise<WebhookKeyRotation>;
  /**
   * Subscribes a URL to events of a scope, or of the whole tenant (`scopeId` null). The answer's
   * `secret` (`whsec_…`, Standard Webhooks) is shown this once.
   */
  createWebhook(scopeId: string | null, body: S['CreateWebhookBody']): Promise<S['CreatedWebhookSubscription']>;
  /** A new Standard Webhooks secret, answered once; the old one still signs for `overlap_seconds` (default 24 h). */
  rotateWebhookSecret(subscriptionId: string, body?: S['RotateWebhookSecretBody']): Promise<S['WebhookSecretRotation']>;
}

export function createRegistryClient(opts: RegistryClientOptions): RegistryClient {
  const raw = createServiceClient<RegistryPaths>('registry', opts);
  return {
    service: 'registry',
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    raw,
    createTenant: (body) => unwrap('registry', raw.POST('/api/v1/tenants', { body })),
    createPrincipal: (body) => unwrap('registry', raw.POST('/api/v1/principals', { body })),
    createApiKey: (body) => unwrap('registry', raw.POST('/api/v1/api-keys', { body })),
    createScope: (body) => unwrap('registry', raw.POST('/api/v1/scopes', { body })),
    getScope: (scope_id) => unwrap('registry', raw.GET('/api/v1/scopes/{scope_id}', { params: { path: { scope_id } } })),
    createRule: (scope_id, body) => unwrap('registry', raw.POST('/api/v1/scopes/{scope_id}/rules', { params: { path: { scope_id } }, body })),
    updateRule: (scope_id, rule_id, body) => unwrap('registry', raw.PUT('/api/v1/scopes/{scope_id}/rules/{rule_id}', { params: { path: { scope_id, rule_id } }, body })),
    archiveRule: (scope_id, rule_id) => unwrap('registry', raw.PATCH('/api/v1/scopes/{scope_id}/rules/{rule_id}/archive', { params: { path: { scope_id, rule_id } } })),
    async listRules(scope_id, o) {
      const rules: Rule[] = [];
      const pages = cursorPages((cursor) => unwrap('registry', raw.GET('/api/v1/scopes/{scope_id}/rules', { params: { path: { scope_id }, query: { status: o?.status ?? 'active', limit: 1000, cursor } } })));
      for await (const page of pages) rules.push(...page.items);
      return rules;
    },
    webhookKeys: () => unwrap('registry', raw.GET('/.well-known/webhook-key')),
    rotateWebhookKey: (mode) => unwrap('registry', raw.POST('/api/v1/admin/webhook-key/rotate', { body: { mode } })),
    createWebhook: (scope_id, body) =>
      scope_id === null
        ? unwrap('registry', raw.POST('/api/v1/webhooks', { body }))
        : unwrap('registry', raw.POST('/api/v1/scopes/{scope_id}/webhooks', { params: { path: { scope_id } }, body })),
    rotateWebhookSecret: (subscription_id, body = {}) =>
      unwrap('registry', raw.POST('/api/v1/webhooks/{subscription_id}/secret/rotate', { params: { path: { subscription_id } }, body })),
  };
}
