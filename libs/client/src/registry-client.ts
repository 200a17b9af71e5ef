// The registry's client (docs/registry.md and, for identity, docs/identity.md), typed by the generated paths
// of apps/registry/openapi.json. The methods cover what agents, operators and the examples need; every
// other operation is one typed call away on `raw`.
import type { Client } from 'openapi-fetch';
import { createServiceClient, unwrap, type ServiceClientOptions } from './http';
import type { RegistryPaths, RotationMode, WebhookKeyRotation, WebhookKeySet } from './types';
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
  createRule(scopeId: string, body: S['RuleBody']): Promise<S['Rule']>;
  /** GET /.well-known/webhook-key (no authentication): the current key and every key ever used. */
  webhookKeys(): Promise<WebhookKeySet>;
  rotateWebhookKey(mode: RotationMode): Promise<WebhookKeyRotation>;
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
    createRule: (scope_id, body) => unwrap('registry', raw.POST('/api/v1/scopes/{scope_id}/rules', { params: { path: { scope_id } }, body })),
    webhookKeys: () => unwrap('registry', raw.GET('/.well-known/webhook-key')),
    rotateWebhookKey: (mode) => unwrap('registry', raw.POST('/api/v1/admin/webhook-key/rotate', { body: { mode } })),
  };
}
