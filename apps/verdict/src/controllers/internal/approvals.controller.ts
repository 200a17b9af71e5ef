import { Controller, Get, Middlewares, Path, Response, Route, Tags } from '@tsoa/runtime';
import { mintTenantId } from '@arbiter/auth';
import type { VerdictContext } from '../../context';
import { pathIdsChecked, TENANT_ID } from './internal-input';
import type { ErrorBody } from '../../models/errors';
import type { ApprovalStatus } from '../../models/approvals';

/** The path's ids must look like ids before anything is read (400 invalid_request). */
const idsChecked = pathIdsChecked({
  tenant_id: { pattern: TENANT_ID, what: 'a tenant id (tnt-…)' },
  approval_id: { pattern: /^apr-[0-9a-z_.-]{1,100}$/, what: 'an approval id (apr-…)' },
});

export interface InternalApprovalStatus {
  id: string;
  status: ApprovalStatus;
}

/** An approval's status, for the registry's escalation notifications (docs/approvals.md "Notifications"). */
@Route('internal/v1/tenants/{tenant_id}/approvals')
@Tags('Approvals')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed id')
export class InternalApprovalsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /** Whether the approval is still pending: an escalation is only sent while it is. */
  @Get('{approval_id}/status')
  @Middlewares(idsChecked)
  @Response<ErrorBody>(404, 'No such approval in this tenant')
  async approvalStatus(@Path() tenant_id: string, @Path() approval_id: string): Promise<InternalApprovalStatus> {
    // /internal/v1 vouches for the caller (a service of this deployment); the form was checked above.
    return this.ctx.approvals.statusOf(mintTenantId(tenant_id), approval_id);
  }
}
