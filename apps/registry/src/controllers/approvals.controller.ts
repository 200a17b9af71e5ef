import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { Approval, DecideApprovalBody, RequestApprovalBody } from '../models/approvals';
import { Instants } from '../http/instants';

@Route('api/v1/scopes/{scope_id}/approvals')
@Tags('Approvals')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Not found')
export class ApprovalsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Asks for approval to go against an active invariant or rule of the scope; notifies `approval.requested`.
   * @summary Ask for approval to go against an entry
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['write'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'trigger_id is not an invariant or rule, or trigger_type contradicts it')
  @Response<ErrorBody>(409, 'Trigger revoked or archived')
  @Response<ErrorBody>(422, 'Missing field')
  async requestApproval(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: RequestApprovalBody): Promise<Approval> {
    this.setStatus(201);
    return this.ctx.approvals.request(req.user, scope_id, body);
  }

  /**
   * The scope's approvals, oldest first; filters `status`, `trigger_id`, `requested_by`.
   * @summary List a scope's approvals
   * @param scope_id The scope id (`scp-`).
   * @param status Only approvals of this status (at the time of the request: a pending approval past its expiry is expired).
   * @param trigger_id Only approvals of this invariant or rule.
   * @param requested_by Only approvals asked for by this principal.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listApprovals(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() status?: 'pending' | 'approved' | 'rejected' | 'expired',
    @Query() trigger_id?: string,
    @Query() requested_by?: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Approval>> {
    return this.ctx.approvals.list(req.user, scope_id, { status, trigger_id, requested_by, limit, cursor });
  }

  /**
   * @summary Get an approval
   * @param scope_id The scope id (`scp-`).
   * @param approval_id The approval id (`apr-`).
   */
  @Get('{approval_id}')
  @Security('bearer', ['read'])
  async getApproval(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() approval_id: string): Promise<Approval> {
    return this.ctx.approvals.get(req.user, scope_id, approval_id);
  }

  /**
   * Decides once: `approved` or `rejected`. Approving a trigger that requires approval creates an
   * `approval_grant` override in the same transaction (its id in `override_id`): limited to this
   * scope's selector (`applies_to_scope`), approved by the deciding principal, ending at
   * `expires_at` or APPROVAL_GRANT_TTL_SECONDS after the decision, whichever is earlier (a later
   * `expires_at` is 422). A second decision, also a concurrent one, is 409. The principal that
   * requested the approval cannot decide it; when the rule names deciders, only they may (403), and
   * from `escalates_at` on its `escalation_deciders` too. With `approvals_required` above 1 an
   * approval is recorded in `approvals` and the approval stays pending until that many distinct
   * principals approved (the same principal twice: 409); one rejection rejects. A decision on an
   * expired approval is 409 (docs/approvals.md "Quorum, escalation and expiry").
   * @summary Approve or reject
   * @param scope_id The scope id (`scp-`).
   * @param approval_id The approval id (`apr-`).
   */
  @Post('{approval_id}/decide')
  @Security('bearer', ['approve'])
  @Response<ErrorBody>(400, 'expires_at with a rejection, or without Z or an offset')
  @Response<ErrorBody>(409, 'Already decided, already approved by this principal, or expired')
  @Response<ErrorBody>(422, 'Missing field, or expires_at in the past or beyond APPROVAL_GRANT_TTL_SECONDS')
  @Instants('expires_at')
  async decideApproval(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Path() approval_id: string,
    @Body() body: DecideApprovalBody,
  ): Promise<Approval> {
    return this.ctx.approvals.decide(req.user, scope_id, approval_id, body);
  }
}
