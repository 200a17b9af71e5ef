import type { TenantId } from '@arbiter/auth';
import { Prisma, type Approval as ApprovalRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { ApprovalRow };

export interface ApprovalFilter {
  status?: 'pending' | 'approved' | 'rejected' | 'expired';
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
      approvals_required: number;
      expires_at: Date;
      escalates_at: Date | null;
      escalation_deciders: string[];
      created_at: Date;
      updated_at: Date;
      created_by: string | null;
    },
  ) {
    return this.db.approval.create({ data: { ...data, tenant_id: tenantId } });
  }

  find(tenantId: TenantId, scopeId: string, id: string) {
    return this.db.approval.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, id } });
  }

  /**
   * The status filter goes by the status at `at.now`: a pending row past its expiry (expires_at, else
   * created_at + `at.ttlSeconds`) is `expired`, not `pending`.
   */
  list(tenantId: TenantId, scopeId: string, filter: ApprovalFilter, limit: number, at: { now: Date; ttlSeconds: number }, after?: After) {
    const legacyDue = new Date(at.now.getTime() - at.ttlSeconds * 1000);
    const due = { OR: [{ expires_at: { lte: at.now } }, { expires_at: null, created_at: { lte: legacyDue } }] };
    const notDue = { OR: [{ expires_at: { gt: at.now } }, { expires_at: null, created_at: { gt: legacyDue } }] };
    const status: Prisma.ApprovalWhereInput =
      filter.status === 'pending'
        ? { AND: [{ status: 'pending' }, notDue] }
        : filter.status === 'expired'
          ? { OR: [{ status: 'expired' }, { AND: [{ status: 'pending' }, due] }] }
          : filter.status
            ? { status: filter.status }
            : {};
    return this.db.approval.findMany({
      where: {
        tenant_id: tenantId,
        scope_id: scopeId,
        ...(filter.trigger_id ? { trigger_id: filter.trigger_id } : {}),
        ...(filter.requested_by ? { requested_by: filter.requested_by } : {}),
        AND: [status, afterFilter(after)],
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
    data: {
      status: 'approved' | 'rejected';
      comment: string | null;
      decided_by: string;
      decider_principal_id: string;
      decided_at: Date;
      approvals: object[];
    },
  ): Promise<number> {
    const res = await this.db.approval.updateMany({
      where: { tenant_id: tenantId, id, status: 'pending' },
      data: { ...data, approvals: data.approvals as Prisma.InputJsonValue, decision: data.status, version: 2, updated_at: data.decided_at },
    });
    return res.count;
  }

  /** An approval given towards the quorum (the row stays pending); 0 when it is no longer pending. */
  async recordApprovals(tenantId: TenantId, id: string, approvals: object[], at: Date): Promise<number> {
    const res = await this.db.approval.updateMany({
      where: { tenant_id: tenantId, id, status: 'pending' },
      data: { approvals: approvals as Prisma.InputJsonValue, updated_at: at },
    });
    return res.count;
  }

  /** Stores the expiry of a pending approval past its expires_at; 0 when it is no longer pending. */
  async expire(tenantId: TenantId, id: string, at: Date): Promise<number> {
    const res = await this.db.approval.updateMany({
      where: { tenant_id: tenantId, id, status: 'pending' },
      data: { status: 'expired', version: 2, updated_at: at },
    });
    return res.count;
  }

  async attachOverride(tenantId: TenantId, id: string, overrideId: string): Promise<void> {
    await this.db.approval.updateMany({ where: { tenant_id: tenantId, id }, data: { override_id: overrideId } });
  }
}
