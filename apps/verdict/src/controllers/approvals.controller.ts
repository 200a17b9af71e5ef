import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Approval, ApprovalList, CreateApprovalBody, DecisionBody } from '../models/approvals';

@Route('{tenant_id}/v1/approvals')
@Tags('Approvals')
export class ApprovalsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Opens a pending approval of an approval_required consultation: intended_* are copied from the
   * consultation, triggers are the approval-requiring rules that fired, candidate_deciders the union
   * of their deciders. approval.requested goes to the tenant's webhooks. Needs `check`.
   * @summary Open an approval of a consultation
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   */
  @Post()
  @Security('apiKey')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'consultation_not_approval_required, validation_failed')
  @Response<ErrorBody>(403, "cross_tenant_forbidden (another tenant's consultation), insufficient_permission")
  @Response<ErrorBody>(404, 'consultation_not_found')
  @Response<ErrorBody>(409, 'approval_exists: the consultation already has an approval (details.approval_id)')
  async createApproval(@Path() tenant_id: string, @Request() req: AuthedRequest, @Body() body: CreateApprovalBody): Promise<Approval> {
    this.setStatus(201);
    return this.ctx.approvals.create(req.user, tenant_id, body);
  }

  /**
   * While pending, decider and decision are null. Needs `read`, `check` or `approve`; a key restricted to some
   * scopes reads only approvals whose triggering rules all lie in them (404 otherwise).
   * @summary Get an approval
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param approval_id The approval id (`apr-`).
   */
  @Get('{approval_id}')
  @Security('apiKey')
  @Response<ErrorBody>(403, 'cross_tenant_forbidden, insufficient_permission')
  @Response<ErrorBody>(404, 'approval_not_found')
  async getApproval(@Path() tenant_id: string, @Path() approval_id: string, @Request() req: AuthedRequest): Promise<Approval> {
    return this.ctx.approvals.get(req.user, tenant_id, approval_id);
  }

  /**
   * Newest first. Needs `read`, `check` or `approve`. For a key restricted to some scopes a page leaves out the
   * approvals it does not reach, so it may hold fewer than `limit` items (docs/verdicts.md "Authentication").
   * @param status pending, approved, rejected or expired (by the status at the time of the request).
   * @param assignee A candidate decider: a principal id or a role id (exact entry of candidate_deciders).
   * @param requester The requesting principal (requester or requester_principal).
   * @param since ISO 8601 date or timestamp, inclusive (requested_at).
   * @param until ISO 8601 date or timestamp, inclusive (requested_at).
   * @param dominating_rule_id The consultation's dominating rule.
   * @param limit Default 50, at most 1000.
   * @isInt limit must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page.
   * @summary List approvals
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   */
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(400, 'invalid_query, invalid_cursor')
  async listApprovals(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Query() status?: string,
    @Query() assignee?: string,
    @Query() requester?: string,
    @Query() since?: string,
    @Query() until?: string,
    @Query() dominating_rule_id?: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<ApprovalList> {
    return this.ctx.approvals.list(req.user, tenant_id, { status, assignee, requester, since, until, dominating_rule_id, limit, cursor });
  }

  /**
   * Approves or rejects, once. The caller must be in candidate_deciders by principal id or role.
   * approve with a grant creates an `approval_grant` override in the registry over every triggering
   * rule; its id is in grants. Needs `approve`.
   * @summary Approve or reject a consultation
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param approval_id The approval id (`apr-`).
   */
  @Post('{approval_id}/decision')
  @Security('apiKey')
  @Response<ErrorBody>(400, 'invalid_grant (a grant with reject, a bad expires_at), validation_failed')
  @Response<ErrorBody>(403, 'not_a_valid_decider, cross_tenant_forbidden, insufficient_permission')
  @Response<ErrorBody>(404, 'approval_not_found')
  @Response<ErrorBody>(409, 'already_decided')
  @Response<ErrorBody>(
    422,
    'invalid_grant (a grant beyond the approved scope or naming no scope field, expires_at in the past or too late, or refused by the registry)',
  )
  @Response<ErrorBody>(503, 'registry_unavailable: the grant could not be created; the approval is still pending')
  async decideApproval(
    @Path() tenant_id: string,
    @Path() approval_id: string,
    @Request() req: AuthedRequest,
    @Body() body: DecisionBody,
  ): Promise<Approval> {
    return this.ctx.approvals.decide(req.user, tenant_id, approval_id, body);
  }
}
