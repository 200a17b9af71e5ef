import { Body, Controller, Header, Middlewares, Path, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { ownBody } from '@arbiter/http';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { CheckRequest, CheckResponse } from '../models/verdicts';
import { answerHeaders } from '../domain/evaluation-answer';

/**
 * POST /<tenant_id>/v1/check. `check` is the route's one handler, on both of its doors: the fast lane
 * (http/check-lane.ts, ADR 0006), which takes the common request before express, and the tsoa route,
 * which serves the rest (compressed or chunked bodies, `+json` media types). On the tsoa route it runs
 * through `ownBody`: the body arrives as sent and CheckService parses it once, with the codes of the
 * contract, instead of tsoa's generic validation.
 */
@Route('{tenant_id}/v1/check')
@Tags('Verdicts')
export class CheckController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Strict evaluation: the context is shaped in advance, a missing field is 422 insufficient_context.
   * The consultation is committed and the verdict signed before the answer. Response headers:
   * X-Verdict-TTL (seconds applied) and X-Consultation-Id. Needs the `check` permission.
   * @param tenant_id The tenant id (or slug); it must be the API key's own tenant.
   * @param verdictTtl Seconds the verdict may be acted on, 1 to 3600: it may shorten the tenant's verdict_ttl_seconds, never lengthen it (a larger value is lowered to the tenant's; the response header says what applied). Default the tenant's.
   * @summary Strict evaluation of an intended action
   */
  @Post()
  @Security('apiKey', ['check'])
  @Security('session', ['check'])
  @Response<ErrorBody>(400, 'invalid_scope_field, invalid_scope_value, invalid_verdict_ttl, invalid_context_shape, validation_failed')
  @Response<ErrorBody>(401, 'missing_credentials, invalid_credentials')
  @Response<ErrorBody>(403, 'principal_deactivated, insufficient_permission, cross_tenant_forbidden')
  @Response<ErrorBody>(
    422,
    'insufficient_context: details.missing_fields and details.required_context name what is missing; context_contradicts_parameters: a context Fact restates a path of the parameters with another value (details.field)',
  )
  @Response<ErrorBody>(500, 'signing_key_unavailable')
  @Response<ErrorBody>(
    503,
    'registry_unavailable, policy_unavailable, auth_unavailable; evaluation_budget_exceeded: the evaluation ran past EVALUATION_BUDGET_MS, no verdict was given (the message names the budget)',
  )
  @Middlewares(
    ownBody(CheckController, (c, req) => c.check(String(req.params.tenant_id), req as never, req.body, req.header('X-Verdict-TTL'))),
  )
  async check(
    @Path() tenant_id: string,
    @Request() req: { user: AuthenticatedIdentity },
    @Body() body: CheckRequest,
    @Header('X-Verdict-TTL') verdictTtl?: string,
  ): Promise<CheckResponse> {
    const answer = await this.ctx.checks.check(req.user, tenant_id, body, verdictTtl);
    for (const [name, value] of Object.entries(answerHeaders(answer))) this.setHeader(name, value);
    return answer.body;
  }
}
