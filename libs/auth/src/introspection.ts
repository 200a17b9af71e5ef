import { RegistryInternalClient } from '@arbiter/internal-api';
import type { AuthenticatedIdentity } from './identity';
import { mintTenantId } from './tenant-id';
import type { KeyResolver } from './resolver';

/**
 * Resolves keys through the registry's internal introspection endpoint (docs/identity.md), with
 * @arbiter/internal-api's client. Only the key's hash crosses the wire. Any failure throws (the
 * client's RegistryUnavailableError or RegistryRejectedError): the Authenticator answers the
 * service's 503, and CachedKeyResolver keeps what it holds for at most its lifetime.
 */
export class IntrospectionClient implements KeyResolver {
  private readonly registry: RegistryInternalClient;

  constructor(registryUrl: string, internalToken: string, timeoutMs = 3000) {
    this.registry = new RegistryInternalClient({ baseUrl: registryUrl, token: internalToken, timeoutMs });
  }

  async resolve(keyHash: string): Promise<AuthenticatedIdentity | null> {
    const answer = await this.registry.introspect(keyHash);
    if (!answer.active || !answer.identity) return null;
    // Trust boundary: the registry answered a call that carried the internal token.
    return { ...answer.identity, tenant_id: mintTenantId(answer.identity.tenant_id) };
  }
}
