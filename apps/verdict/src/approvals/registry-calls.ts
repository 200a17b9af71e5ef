// The registry's internal endpoints the approvals need (docs/webhooks.md "Events from the verdict
// service", docs/registry.md approval grants). Kept apart from RegistryClient, which reads state.
import { INTERNAL_TOKEN_HEADER } from '@arbiter/auth';
import { RegistryUnavailableError } from '../registry/registry-client';
import type { ScopeFieldValue } from '../models/approvals';

/** The registry refused the call for a reason a retry will not change (4xx): its `detail` is kept. */
export class RegistryRejectedError extends Error {
  readonly code = 'registry_rejected';
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`registry answered ${status}: ${detail}`);
    this.name = 'RegistryRejectedError';
  }
}

export interface GrantCall {
  target_ids: string[];
  applies_to_scope: Record<string, ScopeFieldValue>;
  expires_at: string;
  justification: string;
  approved_by: string;
  approval_id: string;
  consultation_id: string;
}

export interface ApprovalEventCall {
  type: 'approval.requested' | 'approval.resolved';
  entity_type: 'approval';
  entity_id: string;
  scope_ids: string[];
  actor_id: string | null;
  data: object;
  idempotency_key: string;
}

export class ApprovalRegistryCalls {
  constructor(
    private readonly baseUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs = 5_000,
  ) {}

  /** POST /internal/v1/tenants/{id}/overrides: the approval_grant override; answers its id. */
  async createGrant(tenantId: string, grant: GrantCall): Promise<{ id: string; scope_ids: string[] }> {
    const { body } = await this.call('POST', `/internal/v1/tenants/${encodeURIComponent(tenantId)}/overrides`, { override_type: 'approval_grant', ...grant });
    return body as { id: string; scope_ids: string[] };
  }

  /**
   * An earlier grant of this approval that is still in force, from the tenant state: a grant whose
   * answer was lost (timeout) is found again instead of being made twice.
   */
  async findGrant(tenantId: string, approvalId: string): Promise<{ id: string } | null> {
    const { body } = await this.call('GET', `/internal/v1/tenants/${encodeURIComponent(tenantId)}/state`);
    const overrides = (body as { overrides?: Array<{ id: string; approval_id: string | null }> }).overrides ?? [];
    return overrides.find((o) => o.approval_id === approvalId) ?? null;
  }

  /** POST /internal/v1/tenants/{id}/events; 201 (recorded) and 200 (already recorded) both succeed. */
  async recordEvent(tenantId: string, event: ApprovalEventCall): Promise<void> {
    await this.call('POST', `/internal/v1/tenants/${encodeURIComponent(tenantId)}/events`, { source: 'verdict', ...event });
  }

  /** The registry scope of a rule version (immutable, so callers may cache it); null when unknown. */
  async ruleVersionScope(tenantId: string, ruleVersionId: string): Promise<string | null> {
    try {
      const { body } = await this.call('GET', `/internal/v1/rule-versions/${encodeURIComponent(ruleVersionId)}?tenant_id=${encodeURIComponent(tenantId)}`);
      return (body as { scope_id?: string }).scope_id ?? null;
    } catch (err) {
      if (err instanceof RegistryRejectedError && err.status === 404) return null;
      throw err;
    }
  }

  private async call(method: 'GET' | 'POST', path: string, payload?: object): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.baseUrl), {
        method,
        headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) },
        body: payload ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new RegistryUnavailableError(`registry unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (res.status >= 500 || res.status === 401 || res.status === 429) {
      // 401: a token mismatch is a deployment fault, not the caller's; retrying after a fix works.
      throw new RegistryUnavailableError(`registry answered ${res.status} for ${method} ${path.split('?')[0]}`);
    }
    if (!res.ok) {
      const detail = (body as { detail?: unknown; message?: unknown } | null)?.detail ?? (body as { message?: unknown } | null)?.message ?? text;
      throw new RegistryRejectedError(res.status, String(detail).slice(0, 500));
    }
    return { status: res.status, body };
  }
}
