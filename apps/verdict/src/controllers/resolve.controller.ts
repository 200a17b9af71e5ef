import { Body, Controller, Header, Middlewares, Path, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { ownBody } from '@arbiter/http';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { ResolveBody, ResolveResponse } from '../models/verdicts';
import { answerHeaders } from '../domain/evaluation-answer';

/**
 * POST /<tenant_id>/v1/resolve. `resolve` is the route's handler; it runs through `ownBody`, so the
 * body arrives as sent and ResolveService parses it once (either variant), with the codes of the
 * contract, instead of tsoa's generic validation.
 */
@Route('{tenant_id}/v1/resolve')
@Tags('Verdicts')
export class ResolveController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Tolerant evaluation in rounds. Two bodies share this path, told apart by their fields: the
   * detailed one (action, resource, scope, context) and the overview one (action_type, context).
   * An incomplete answer lists only the context that can still change the verdict, with a
   * resolve_session_id to send back; it writes no consultation and signs nothing. A complete answer
   * is the check answer plus required_context_history (overview: its own fields). Needs `check`.
   * @param tenant_id The tenant id (or slug); it must be the API key's own tenant.
   * @param verdictTtl Seconds the verdict may be acted on, 1 to 3600: it may shorten the tenant's verdict_ttl_seconds, never lengthen it (a larger value is lowered to the tenant's; the response header says what applied). Default the tenant's.
   * @summary Tolerant evaluation in rounds
   */
  @Post()
  @Security('apiKey', ['check'])
  @Security('session', ['check'])
  @Response<ErrorBody>(400, 'invalid_context_shape, unknown_scope_field, invalid_scope_value, invalid_verdict_ttl, validation_failed')
  @Response<ErrorBody>(401, 'missing_credentials, invalid_credentials')
  @Response<ErrorBody>(403, 'principal_deactivated, insufficient_permission, cross_tenant_forbidden')
  @Response<ErrorBody>(404, 'unknown_action_type, resolve_session_not_found')
  @Response<ErrorBody>(409, 'resolve_session_completed, resolve_session_mismatch, resolve_session_conflict, scope_conflict')
  @Response<ErrorBody>(422, 'resolve_context_too_large: the session context would outgrow what one request may carry')
  @Response<ErrorBody>(429, 'too_many_rounds: the tenant max_resolve_rounds (default 12) is used up')
  @Response<ErrorBody>(500, 'signing_key_unavailable')
  @Response<ErrorBody>(
    503,
    'registry_unavailable, policy_unavailable, auth_unavailable; evaluation_budget_exceeded: the evaluation ran past EVALUATION_BUDGET_MS, no verdict was given (the message names the budget)',
  )
  @Middlewares(
    ownBody(ResolveController, (c, req) => c.resolve(String(req.params.tenant_id), req as never, req.body, req.header('X-Verdict-TTL'))),
  )
  async resolve(
    @Path() tenant_id: string,
    @Request() req: { user: AuthenticatedIdentity },
    @Body() body: ResolveBody,
    @Header('X-Verdict-TTL') verdictTtl?: string,
  ): Promise<ResolveResponse> {
    const answer = await this.ctx.resolves.resolve(req.user, tenant_id, body, verdictTtl);
    for (const [name, value] of Object.entries(answerHeaders(answer))) this.setHeader(name, value);
    return answer.body;
  }
}
