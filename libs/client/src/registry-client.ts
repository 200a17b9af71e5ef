// The registry's client (docs/registry.md and, for identity, docs/identity.md), typed by the generated paths
// of apps/registry/openapi.json. There is one method per public operation of the document (REGISTRY_OPERATIONS
// maps each operationId to its method, and the compiler refuses a document operation without one); `raw` is the
// typed openapi-fetch client itself. Bodies, queries and answers are the generated types, never copies.
import type { Client } from 'openapi-fetch';
import { createServiceClient, cursorPages, unwrap, type ServiceClientOptions } from './http';
import type {
  RegistryPaths,
  RotationMode,
  Rule,
  RuleBody,
  RuleStatusFilter,
  ScopeDetails,
  WebhookKeyRotation,
  WebhookKeySet,
} from './types';
import type { components, operations } from './generated/registry';

type S = components['schemas'];
type Op = operations;
/** The query parameters of a registry operation (all optional unless the document says otherwise). */
export type RegistryQuery<K extends keyof Op> = NonNullable<Op[K]['parameters']['query']>;
/** The JSON body of a registry operation. */
export type RegistryBody<K extends keyof Op> = NonNullable<Op[K]['requestBody']>['content']['application/json'];
/** One page of a registry list: `items` and the `next_cursor` to pass as `cursor` (null on the last page). */
export interface RegistryPage<T> {
  items: T[];
  next_cursor: string | null;
}

export type RegistryClientOptions = ServiceClientOptions;

export interface RegistryClient {
  readonly service: 'registry';
  readonly baseUrl: string;
  readonly raw: Client<RegistryPaths>;

  /** Every item of a list, following `next_cursor`: `all((cursor) => registry.listScopes({ cursor }))`. */
  all<T>(page: (cursor: string | undefined) => Promise<RegistryPage<T>>): Promise<T[]>;
  /** The pages of a list one at a time, first to last (for long lists). */
  pages<T>(page: (cursor: string | undefined) => Promise<RegistryPage<T>>): AsyncGenerator<RegistryPage<T>>;

  // --- tenants (docs/identity.md) ---
  /** POST /tenants (platform_admin). */
  createTenant(body: S['CreateTenantBody']): Promise<S['Tenant']>;
  /** GET /tenants: every tenant for a platform admin, the key's own otherwise. */
  listTenants(query?: RegistryQuery<'ListTenants'>): Promise<S['Page_Tenant_']>;
  getTenant(tenantId: string): Promise<S['Tenant']>;
  /** PATCH /tenants/{id} (admin): name and settings (settings are replaced as a whole). */
  updateTenant(tenantId: string, body: S['UpdateTenantBody']): Promise<S['Tenant']>;

  // --- principals ---
  createPrincipal(body: S['CreatePrincipalBody']): Promise<S['Principal']>;
  /** GET /principals (admin); a platform admin may pass `tenant_id`. */
  listPrincipals(query?: RegistryQuery<'ListPrincipals'>): Promise<S['Page_Principal_']>;
  getPrincipal(principalId: string): Promise<S['Principal']>;
  /** PATCH /principals/{id}: name, roles, or `active: false` to deactivate (its keys stop working). */
  updatePrincipal(principalId: string, body: S['UpdatePrincipalBody']): Promise<S['Principal']>;
  /** A one-time console sign-in link for a human principal (10 minutes, one use). */
  createConsoleLink(principalId: string): Promise<S['ConsoleLinkCreated']>;

  // --- API keys ---
  /** The plaintext key is in the answer's `key`, and only there. */
  createApiKey(body: S['CreateApiKeyBody']): Promise<S['CreatedApiKey']>;
  /** GET /api-keys (admin): the keys without their secrets, filtered by `principal_id` (and `tenant_id` for a platform admin). */
  listApiKeys(query?: RegistryQuery<'ListApiKeys'>): Promise<S['Page_ApiKey_']>;
  /** DELETE /api-keys/{id}: the key is refused from then on; answers the revoked key. */
  revokeApiKey(keyId: string): Promise<S['ApiKey']>;

  // --- scopes ---
  createScope(body: S['CreateScopeBody']): Promise<S['Scope']>;
  listScopes(query?: RegistryQuery<'ListScopes'>): Promise<S['Page_Scope_']>;
  /** GET /scopes/{id}: the scope, its selector and its entry counts. */
  getScope(scopeId: string): Promise<ScopeDetails>;
  updateScope(scopeId: string, body: S['UpdateScopeBody']): Promise<S['Scope']>;
  /** GET /scopes/{id}/resolve: the scope's normative state (inherited entries included) and its normative_hash. */
  resolveScope(scopeId: string): Promise<S['ResolvedScope']>;

  // --- rules and versions ---
  createRule(scopeId: string, body: RuleBody): Promise<Rule>;
  /** Every rule of a scope (default the active ones), following next_cursor, oldest first. */
  listRules(scopeId: string, opts?: { status?: RuleStatusFilter }): Promise<Rule[]>;
  /** One page of a scope's rules (listRules reads them all). */
  listRulesPage(scopeId: string, query?: RegistryQuery<'ListRules'>): Promise<S['Page_Rule_']>;
  getRule(scopeId: string, ruleId: string): Promise<Rule>;
  /** PUT: a new version whose content is `body` (omitted optional fields take their defaults, docs/registry.md "Rules and versions"). */
  updateRule(scopeId: string, ruleId: string, body: RuleBody): Promise<Rule>;
  /** PATCH …/archive (idempotent): the rule leaves the normative state. */
  archiveRule(scopeId: string, ruleId: string): Promise<Rule>;
  listRuleVersions(scopeId: string, ruleId: string, query?: RegistryQuery<'ListRuleVersions'>): Promise<S['Page_RuleVersion_']>;
  /** GET /rules/{id}/shadow: what the rule's versions in shadow mode would have decided (503 while the verdict service cannot say). */
  getRuleShadow(ruleId: string): Promise<S['RuleShadowReport']>;

  // --- decisions ---
  createDecision(scopeId: string, body: S['CreateDecisionBody']): Promise<S['Decision']>;
  listDecisions(scopeId: string, query?: RegistryQuery<'ListDecisions'>): Promise<S['Page_Decision_']>;
  getDecision(scopeId: string, decisionId: string): Promise<S['Decision']>;

  // --- invariants ---
  createInvariant(scopeId: string, body: S['CreateInvariantBody']): Promise<S['Invariant']>;
  listInvariants(scopeId: string, query?: RegistryQuery<'ListInvariants'>): Promise<S['Page_Invariant_']>;
  getInvariant(scopeId: string, invariantId: string): Promise<S['Invariant']>;
  /** DELETE: a soft revoke; the invariant stays readable with its status. */
  revokeInvariant(scopeId: string, invariantId: string): Promise<S['Invariant']>;

  // --- overrides ---
  createOverride(scopeId: string, body: S['CreateOverrideBody']): Promise<S['Override']>;
  listOverrides(scopeId: string, query?: RegistryQuery<'ListOverrides'>): Promise<S['Page_Override_']>;
  revokeOverride(scopeId: string, overrideId: string): Promise<S['Override']>;

  // --- references, namespaces, links ---
  createReference(scopeId: string, body: S['CreateReferenceBody']): Promise<S['Reference']>;
  listScopeReferences(scopeId: string, query?: RegistryQuery<'ListScopeReferences'>): Promise<S['Page_Reference_']>;
  /** GET /references?entry_id= or ?context_ref=: the references of an entry or of a context, across scopes. */
  findReferences(query: RegistryQuery<'FindReferences'>): Promise<S['Page_Reference_']>;
  createNamespace(scopeId: string, body: S['CreateNamespaceBody']): Promise<S['Namespace']>;
  listNamespaces(scopeId: string, query?: RegistryQuery<'ListNamespaces'>): Promise<S['Page_Namespace_']>;
  createLink(body: S['CreateLinkBody']): Promise<S['Link']>;
  /** GET /links?entity_id= (required), optionally of one relation. */
  listLinks(query: RegistryQuery<'ListLinks'>): Promise<S['Page_Link_']>;

  // --- search, compliance check, events ---
  search(body: S['SearchBody']): Promise<S['SearchResult']>;
  /** POST /check: the conflicts of a proposed action with the scope's entries, and those an override covers. */
  checkCompliance(body: S['CheckBody']): Promise<S['CheckResult']>;
  /** GET /scopes/{id}/events: the scope's event feed, filtered by `type`, resumed `after` an event id. */
  listEvents(scopeId: string, query?: RegistryQuery<'ListEvents'>): Promise<S['Page_RegistryEvent_']>;

  // --- approvals (the registry's own, per scope) ---
  requestApproval(scopeId: string, body: S['RequestApprovalBody']): Promise<S['Approval']>;
  listApprovals(scopeId: string, query?: RegistryQuery<'ListApprovals'>): Promise<S['Page_Approval_']>;
  getApproval(scopeId: string, approvalId: string): Promise<S['Approval']>;
  /** POST …/decide (approve): an approving decision creates the override; `not_a_valid_decider` when the caller may not decide. */
  decideApproval(scopeId: string, approvalId: string, body: S['DecideApprovalBody']): Promise<S['Approval']>;

  // --- webhooks ---
  /** The answer's `secret` (`whsec_…`, Standard Webhooks) is shown this once. */
  createScopeWebhook(scopeId: string, body: S['CreateWebhookBody']): Promise<S['CreatedWebhookSubscription']>;
  listScopeWebhooks(scopeId: string, query?: RegistryQuery<'ListScopeWebhooks'>): Promise<S['Page_WebhookSubscription_']>;
  /** POST /webhooks: a tenant-level subscription (every scope; also the verdict gateway's approvals). */
  createTenantWebhook(body: S['CreateWebhookBody']): Promise<S['CreatedWebhookSubscription']>;
  listWebhooks(query?: RegistryQuery<'ListWebhooks'>): Promise<S['Page_WebhookSubscription_']>;
  getWebhook(subscriptionId: string): Promise<S['WebhookSubscription']>;
  updateWebhook(subscriptionId: string, body: S['UpdateWebhookBody']): Promise<S['WebhookSubscription']>;
  deleteWebhook(subscriptionId: string): Promise<void>;
  listWebhookDeliveries(subscriptionId: string, query?: RegistryQuery<'ListWebhookDeliveries'>): Promise<S['Page_WebhookDelivery_']>;
  getWebhookDelivery(subscriptionId: string, deliveryId: string): Promise<S['WebhookDelivery']>;
  /** POST …/redeliver: queues the delivery again (202). */
  redeliverWebhook(subscriptionId: string, deliveryId: string): Promise<S['WebhookDelivery']>;
  /** GET /.well-known/webhook-key (no authentication): the current key and every key ever used. */
  webhookKeys(): Promise<WebhookKeySet>;
  rotateWebhookKey(mode: RotationMode): Promise<WebhookKeyRotation>;
  /** A new Standard Webhooks secret, answered once; the old one still signs for `overlap_seconds` (default 24 h). */
  rotateWebhookSecret(subscriptionId: string, body?: S['RotateWebhookSecretBody']): Promise<S['WebhookSecretRotation']>;
}

/**
 * Which method carries each operation of apps/registry/openapi.json. `Record<keyof operations, …>` makes a
 * new operation in the document a compile error here until the client has a method for it.
 */
export const REGISTRY_OPERATIONS = {
  CreateTenant: 'createTenant',
  ListTenants: 'listTenants',
  GetTenant: 'getTenant',
  UpdateTenant: 'updateTenant',
  CreatePrincipal: 'createPrincipal',
  ListPrincipals: 'listPrincipals',
  GetPrincipal: 'getPrincipal',
  UpdatePrincipal: 'updatePrincipal',
  CreateConsoleLink: 'createConsoleLink',
  CreateApiKey: 'createApiKey',
  ListApiKeys: 'listApiKeys',
  RevokeApiKey: 'revokeApiKey',
  CreateScope: 'createScope',
  ListScopes: 'listScopes',
  GetScope: 'getScope',
  UpdateScope: 'updateScope',
  ResolveScope: 'resolveScope',
  CreateRule: 'createRule',
  ListRules: 'listRulesPage',
  GetRule: 'getRule',
  UpdateRule: 'updateRule',
  ArchiveRule: 'archiveRule',
  ListRuleVersions: 'listRuleVersions',
  GetRuleShadow: 'getRuleShadow',
  CreateDecision: 'createDecision',
  ListDecisions: 'listDecisions',
  GetDecision: 'getDecision',
  CreateInvariant: 'createInvariant',
  ListInvariants: 'listInvariants',
  GetInvariant: 'getInvariant',
  RevokeInvariant: 'revokeInvariant',
  CreateOverride: 'createOverride',
  ListOverrides: 'listOverrides',
  RevokeOverride: 'revokeOverride',
  CreateReference: 'createReference',
  ListScopeReferences: 'listScopeReferences',
  FindReferences: 'findReferences',
  CreateNamespace: 'createNamespace',
  ListNamespaces: 'listNamespaces',
  CreateLink: 'createLink',
  ListLinks: 'listLinks',
  Search: 'search',
  Check: 'checkCompliance',
  ListEvents: 'listEvents',
  RequestApproval: 'requestApproval',
  ListApprovals: 'listApprovals',
  GetApproval: 'getApproval',
  DecideApproval: 'decideApproval',
  CreateScopeWebhook: 'createScopeWebhook',
  ListScopeWebhooks: 'listScopeWebhooks',
  CreateTenantWebhook: 'createTenantWebhook',
  ListWebhooks: 'listWebhooks',
  GetWebhook: 'getWebhook',
  UpdateWebhook: 'updateWebhook',
  DeleteWebhook: 'deleteWebhook',
  ListWebhookDeliveries: 'listWebhookDeliveries',
  GetWebhookDelivery: 'getWebhookDelivery',
  RedeliverWebhook: 'redeliverWebhook',
  WebhookKey: 'webhookKeys',
  RotateWebhookKey: 'rotateWebhookKey',
  RotateWebhookSecret: 'rotateWebhookSecret',
} as const satisfies Record<keyof Op, keyof RegistryClient>;

export function createRegistryClient(opts: RegistryClientOptions): RegistryClient {
  const raw = createServiceClient<RegistryPaths>('registry', opts);
  const call = <R extends { data?: unknown; error?: unknown; response: Response }>(pending: Promise<R>) => unwrap('registry', pending);
  const scope = (scope_id: string) => ({ path: { scope_id } });
  const listRulesPage = (scope_id: string, query?: RegistryQuery<'ListRules'>) =>
    call(raw.GET('/api/v1/scopes/{scope_id}/rules', { params: { path: { scope_id }, query } }));
  const all = async <T>(page: (cursor: string | undefined) => Promise<RegistryPage<T>>) => {
    const items: T[] = [];
    for await (const p of cursorPages(page)) items.push(...p.items);
    return items;
  };
  return {
    service: 'registry',
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    raw,
    all,
    pages: (page) => cursorPages(page),

    createTenant: (body) => call(raw.POST('/api/v1/tenants', { body })),
    listTenants: (query) => call(raw.GET('/api/v1/tenants', { params: { query } })),
    getTenant: (tenant_id) => call(raw.GET('/api/v1/tenants/{tenant_id}', { params: { path: { tenant_id } } })),
    updateTenant: (tenant_id, body) => call(raw.PATCH('/api/v1/tenants/{tenant_id}', { params: { path: { tenant_id } }, body })),

    createPrincipal: (body) => call(raw.POST('/api/v1/principals', { body })),
    listPrincipals: (query) => call(raw.GET('/api/v1/principals', { params: { query } })),
    getPrincipal: (principal_id) => call(raw.GET('/api/v1/principals/{principal_id}', { params: { path: { principal_id } } })),
    updatePrincipal: (principal_id, body) =>
      call(raw.PATCH('/api/v1/principals/{principal_id}', { params: { path: { principal_id } }, body })),
    createConsoleLink: (principal_id) =>
      call(raw.POST('/api/v1/principals/{principal_id}/console-links', { params: { path: { principal_id } } })),

    createApiKey: (body) => call(raw.POST('/api/v1/api-keys', { body })),
    listApiKeys: (query) => call(raw.GET('/api/v1/api-keys', { params: { query } })),
    revokeApiKey: (key_id) => call(raw.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id } } })),

    createScope: (body) => call(raw.POST('/api/v1/scopes', { body })),
    listScopes: (query) => call(raw.GET('/api/v1/scopes', { params: { query } })),
    getScope: (scope_id) => call(raw.GET('/api/v1/scopes/{scope_id}', { params: scope(scope_id) })),
    updateScope: (scope_id, body) => call(raw.PATCH('/api/v1/scopes/{scope_id}', { params: scope(scope_id), body })),
    resolveScope: (scope_id) => call(raw.GET('/api/v1/scopes/{scope_id}/resolve', { params: scope(scope_id) })),

    createRule: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/rules', { params: scope(scope_id), body })),
    listRules: (scope_id, o) => all((cursor) => listRulesPage(scope_id, { status: o?.status ?? 'active', limit: 1000, cursor })),
    listRulesPage,
    getRule: (scope_id, rule_id) => call(raw.GET('/api/v1/scopes/{scope_id}/rules/{rule_id}', { params: { path: { scope_id, rule_id } } })),
    updateRule: (scope_id, rule_id, body) =>
      call(raw.PUT('/api/v1/scopes/{scope_id}/rules/{rule_id}', { params: { path: { scope_id, rule_id } }, body })),
    archiveRule: (scope_id, rule_id) =>
      call(raw.PATCH('/api/v1/scopes/{scope_id}/rules/{rule_id}/archive', { params: { path: { scope_id, rule_id } } })),
    listRuleVersions: (scope_id, rule_id, query) =>
      call(raw.GET('/api/v1/scopes/{scope_id}/rules/{rule_id}/versions', { params: { path: { scope_id, rule_id }, query } })),
    getRuleShadow: (rule_id) => call(raw.GET('/api/v1/rules/{rule_id}/shadow', { params: { path: { rule_id } } })),

    createDecision: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/decisions', { params: scope(scope_id), body })),
    listDecisions: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/decisions', { params: { path: { scope_id }, query } })),
    getDecision: (scope_id, decision_id) =>
      call(raw.GET('/api/v1/scopes/{scope_id}/decisions/{decision_id}', { params: { path: { scope_id, decision_id } } })),

    createInvariant: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/invariants', { params: scope(scope_id), body })),
    listInvariants: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/invariants', { params: { path: { scope_id }, query } })),
    getInvariant: (scope_id, invariant_id) =>
      call(raw.GET('/api/v1/scopes/{scope_id}/invariants/{invariant_id}', { params: { path: { scope_id, invariant_id } } })),
    revokeInvariant: (scope_id, invariant_id) =>
      call(raw.DELETE('/api/v1/scopes/{scope_id}/invariants/{invariant_id}', { params: { path: { scope_id, invariant_id } } })),

    createOverride: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/overrides', { params: scope(scope_id), body })),
    listOverrides: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/overrides', { params: { path: { scope_id }, query } })),
    revokeOverride: (scope_id, override_id) =>
      call(raw.DELETE('/api/v1/scopes/{scope_id}/overrides/{override_id}', { params: { path: { scope_id, override_id } } })),

    createReference: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/references', { params: scope(scope_id), body })),
    listScopeReferences: (scope_id, query) =>
      call(raw.GET('/api/v1/scopes/{scope_id}/references', { params: { path: { scope_id }, query } })),
    findReferences: (query) => call(raw.GET('/api/v1/references', { params: { query } })),
    createNamespace: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/namespaces', { params: scope(scope_id), body })),
    listNamespaces: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/namespaces', { params: { path: { scope_id }, query } })),
    createLink: (body) => call(raw.POST('/api/v1/links', { body })),
    listLinks: (query) => call(raw.GET('/api/v1/links', { params: { query } })),

    search: (body) => call(raw.POST('/api/v1/search', { body })),
    checkCompliance: (body) => call(raw.POST('/api/v1/check', { body })),
    listEvents: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/events', { params: { path: { scope_id }, query } })),

    requestApproval: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/approvals', { params: scope(scope_id), body })),
    listApprovals: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/approvals', { params: { path: { scope_id }, query } })),
    getApproval: (scope_id, approval_id) =>
      call(raw.GET('/api/v1/scopes/{scope_id}/approvals/{approval_id}', { params: { path: { scope_id, approval_id } } })),
    decideApproval: (scope_id, approval_id, body) =>
      call(raw.POST('/api/v1/scopes/{scope_id}/approvals/{approval_id}/decide', { params: { path: { scope_id, approval_id } }, body })),

    createScopeWebhook: (scope_id, body) => call(raw.POST('/api/v1/scopes/{scope_id}/webhooks', { params: scope(scope_id), body })),
    listScopeWebhooks: (scope_id, query) => call(raw.GET('/api/v1/scopes/{scope_id}/webhooks', { params: { path: { scope_id }, query } })),
    createTenantWebhook: (body) => call(raw.POST('/api/v1/webhooks', { body })),
    listWebhooks: (query) => call(raw.GET('/api/v1/webhooks', { params: { query } })),
    getWebhook: (subscription_id) => call(raw.GET('/api/v1/webhooks/{subscription_id}', { params: { path: { subscription_id } } })),
    updateWebhook: (subscription_id, body) =>
      call(raw.PATCH('/api/v1/webhooks/{subscription_id}', { params: { path: { subscription_id } }, body })),
    async deleteWebhook(subscription_id) {
      await call(raw.DELETE('/api/v1/webhooks/{subscription_id}', { params: { path: { subscription_id } } }));
    },
    listWebhookDeliveries: (subscription_id, query) =>
      call(raw.GET('/api/v1/webhooks/{subscription_id}/deliveries', { params: { path: { subscription_id }, query } })),
    getWebhookDelivery: (subscription_id, delivery_id) =>
      call(raw.GET('/api/v1/webhooks/{subscription_id}/deliveries/{delivery_id}', { params: { path: { subscription_id, delivery_id } } })),
    redeliverWebhook: (subscription_id, delivery_id) =>
      call(
        raw.POST('/api/v1/webhooks/{subscription_id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { subscription_id, delivery_id } },
        }),
      ),
    webhookKeys: () => call(raw.GET('/.well-known/webhook-key')),
    rotateWebhookKey: (mode) => call(raw.POST('/api/v1/admin/webhook-key/rotate', { body: { mode } })),
    rotateWebhookSecret: (subscription_id, body = {}) =>
      call(raw.POST('/api/v1/webhooks/{subscription_id}/secret/rotate', { params: { path: { subscription_id } }, body })),
  };
}
