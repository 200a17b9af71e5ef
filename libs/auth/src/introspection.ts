import type { AuthenticatedIdentity, Identity } from './identity';
import { mintTenantId } from './tenant-id';
import type { KeyResolver } from './resolver';

export const INTROSPECTION_PATH = '/internal/v1/introspect';
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

export class IntrospectionError extends Error {
  readonly code = 'introspection_failed';
  constructor(message: string) {
    super(message);
    this.name = 'IntrospectionError';
  }
}

/**
 * Resolves keys through the registry's internal introspection endpoint (docs/identity.md).
 * Only the key's hash crosses the wire.
 */
export class IntrospectionClient implements KeyResolver {
  constructor(
    private readonly registryUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs = 3000,
  ) {}

  async resolve(keyHash: string): Promise<AuthenticatedIdentity | null> {
    let res: Response;
    try {
      res = await fetch(new URL(INTROSPECTION_PATH, this.registryUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: this.internalToken },
        body: JSON.stringify({ key_hash: keyHash }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new IntrospectionError(`registry unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) throw new IntrospectionError(`registry answered ${res.status}`);
    const body = (await res.json()) as { active: boolean; identity?: Identity };
    if (!body.active || !body.identity) return null;
    // Trust boundary: the registry answered a call that carried the internal token.
    return { ...body.identity, tenant_id: mintTenantId(body.identity.tenant_id) };
  }
}
