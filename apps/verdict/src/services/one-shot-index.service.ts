import type { TenantId } from '@arbiter/auth';
import type { OneShotApprovals } from './check.service';
import type { ApprovalRepository, OneShotRow } from '../repositories/approvals.repository';

/** How long a tenant's list of one-shot approvals is reused before it is read again. */
export const ONE_SHOT_REFRESH_MS = 1_000;
/** Tenants whose list is held at once; the oldest is dropped beyond this. */
const MAX_TENANTS = 10_000;
/** One-shot approvals held per tenant (outstanding ones are few: each waits for one check). */
const MAX_PER_TENANT = 1_000;

interface Entry {
  loadedAt: number;
  rows: Promise<OneShotRow[]>;
}

/**
 * The one-shot approvals a check may use (docs/approvals.md "The agent's loop"), read per tenant at
 * most once a second instead of once per approval_required check: without it, every such check
 * costs a database round trip. The database stays the guard: consumption is one conditional
 * UPDATE, so a stale list can only make a check miss an approval (fail closed: approval_required
 * once more), never use one twice or after its time. A decision on this replica refreshes the list
 * at once; another replica sees it within ONE_SHOT_REFRESH_MS.
 */
export class OneShotIndex implements OneShotApprovals {
  private readonly tenants = new Map<string, Entry>();

  constructor(
    private readonly repo: Pick<ApprovalRepository, 'listOneShots' | 'consumeOneShot' | 'releaseOneShot'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async findOneShot(
    tenantId: TenantId,
    requester: string,
    actingFor: string,
    contextHash: string,
    now: Date,
  ): Promise<{ id: string; rule_versions: Record<string, string> } | null> {
    const rows = await this.rowsOf(tenantId);
    const at = now.getTime();
    const hit = rows.find(
      (r) =>
        r.requester === requester && r.requester_principal === actingFor && r.context_hash === contextHash && r.authorizes_until_ms > at,
    );
    return hit ? { id: hit.id, rule_versions: hit.rule_versions } : null;
  }

  async consumeOneShot(tenantId: TenantId, id: string, consultationId: string, at: Date): Promise<boolean> {
    const consumed = await this.repo.consumeOneShot(tenantId, id, consultationId, at);
    // Used (here or, when false, elsewhere): either way it is no longer on offer.
    this.invalidate(tenantId);
    return consumed;
  }

  async releaseOneShot(tenantId: TenantId, id: string, consultationId: string): Promise<void> {
    await this.repo.releaseOneShot(tenantId, id, consultationId);
    this.invalidate(tenantId);
  }

  /** Forgets a tenant's list (a decision was recorded on this replica). */
  invalidate(tenantId: string): void {
    this.tenants.delete(tenantId);
  }

  private rowsOf(tenantId: TenantId): Promise<OneShotRow[]> {
    const now = this.clock();
    const held = this.tenants.get(tenantId);
    if (held && now - held.loadedAt < ONE_SHOT_REFRESH_MS) return held.rows;
    const rows = this.repo.listOneShots(tenantId, new Date(now), MAX_PER_TENANT);
    // A failed read is not kept: the next check reads again.
    rows.catch(() => this.tenants.get(tenantId)?.rows === rows && this.tenants.delete(tenantId));
    if (this.tenants.size >= MAX_TENANTS && !held) this.tenants.delete(this.tenants.keys().next().value as string);
    this.tenants.delete(tenantId);
    this.tenants.set(tenantId, { loadedAt: now, rows });
    return rows;
  }
}
