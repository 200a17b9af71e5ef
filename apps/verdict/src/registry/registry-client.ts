import { INTERNAL_TOKEN_HEADER } from '@arbiter/auth';
import type { RegistryStateHash, RegistryTenantState } from './registry-state';

/** The registry could not be asked (unreachable, timed out, or answered 5xx). */
export class RegistryUnavailableError extends Error {
  readonly code = 'registry_unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'RegistryUnavailableError';
  }
}

/**
 * The registry's internal API (README.md "Architecture"), authenticated with the shared service token.
 * A 404 answers null; any other failure throws RegistryUnavailableError. Never on a check's hot
 * path: the snapshot store calls it in the background, and cold paths (first use of a tenant,
 * rule versions, JWKS by slug) call it directly.
 */
export class RegistryClient {
  /** Requests made so far (observability, and what tests watch). */
  requests = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs = 5_000,
  ) {}

  state(tenantId: string): Promise<RegistryTenantState | null> {
    return this.get(`/internal/v1/tenants/${encodeURIComponent(tenantId)}/state`);
  }

  stateHash(tenantId: string): Promise<RegistryStateHash | null> {
    return this.get(`/internal/v1/tenants/${encodeURIComponent(tenantId)}/state-hash`);
  }

  /** Any rule version, current or superseded; null when it does not exist in this tenant. */
  ruleVersion(id: string, tenantId: string): Promise<Record<string, unknown> | null> {
    return this.get(`/internal/v1/rule-versions/${encodeURIComponent(id)}?tenant_id=${encodeURIComponent(tenantId)}`);
  }

  tenantBySlug(slug: string): Promise<{ id: string; slug: string } | null> {
    return this.get(`/internal/v1/tenants/by-slug/${encodeURIComponent(slug)}`);
  }

  private async get<T>(path: string): Promise<T | null> {
    this.requests++;
    let res: Response;
    try {
      res = await fetch(new URL(path, this.baseUrl), {
        headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new RegistryUnavailableError(`registry unreachable: ${(err as Error).message}`);
    }
    if (res.status === 404 || res.status === 400) {
      // 400: an id the registry cannot even parse does not exist either.
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new RegistryUnavailableError(`registry answered ${res.status} for ${path.split('?')[0]}`);
    }
    return (await res.json()) as T;
  }
}
