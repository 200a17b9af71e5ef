import type { TenantId } from '@arbiter/auth';
import type { Approval as ApprovalRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { ApprovalRow };

export interface ApprovalFilter {
  status?: 'pending' | 'approved' | 'rejected';
  trigger_id?: string;
  requested_by?: string;
}

/** Registry approvals; every query takes the tenant id. */
export class ApprovalsRepository {
  constructor(private readonly db: Db) {}

  create(
    tenantId: TenantId,
    data: {
      id: string;
      scope_id: string;
      trigger_id: string;
      trigger_type: string;
      trigger_version_id: string | null;
      requires_approval: boolean;
      intended_action: string;
      justification: string | null;
      requested_by: string;
      requested_by_type: string;
      candidate_deciders: string[];
      created_by: string | null;
    },
  ) {
    return this.db.approval.create({ data: { ...data, tenant_id: tenantId } });
  }

  find(tenantId: TenantId, scopeId: string, id: string) {
    return this.db.approval.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, id } });
  }

  list(tenantId: TenantId, scopeId: string, filter: ApprovalFilter, limit: number, after?: After) {
    return this.db.approval.findMany({
      where: {
        tenant_id: tenantId,
        scope_id: scopeId,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.trigger_id ? { trigger_id: filter.trigger_id } : {}),
        ...(filter.requested_by ? { requested_by: filter.requested_by } : {}),
        ...afterFilter(after),
      },
      orderBy: PAGE_ORDER,
      take: limit + 1,
    });
  }

  /**
   * Records the decision only while the approval is pending: the conditional UPDATE is what makes
   * a decision happen once, whatever the number of replicas (README.md "Architecture"). Answers how many
   * rows changed (0: already decided).
   */
  async decide(
    tenantId: TenantId,
    id: string,
    data: { status: 'approved' | 'rejected'; comment: string | null; decided_by: string; decider_principal_id: string; decided_at: Date },
  ): Promise<number> {
    const res = await this.db.approval.updateMany({
      where: { tenant_id: tenantId, id, status: 'pending' },
      data: { ...data, decision: data.status, version: 2, updated_at: data.decided_at },
    });
    return res.count;
  }

  async attachOverride(tenantId: TenantId, id: string, overrideId: string): Promise<void> {
    await this.db.approval.updateMany({ where: { tenant_id: tenantId, id }, data: { override_id: overrideId } });
  }
}
