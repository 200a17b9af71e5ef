import { Body, Controller, Header, Middlewares, Path, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { ErrorBody } from '../models/errors';
import type { ResolveBody, ResolveResponse } from '../models/verdicts';
import { resolveRoute } from '../http/evaluation-routes';

@Route('{tenant_id}/v1/resolve')
@Tags('Verdicts')
export class ResolveController extends Controller {
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
  // The contract only: resolveRoute, the route's middleware (http/evaluation-routes.ts), answers,
  // and the body is parsed once, by EvaluationService.resolve.
  @Middlewares(resolveRoute)
  /* eslint-disable @typescript-eslint/no-unused-vars -- the parameters declare the contract */
  async resolve(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Body() body: ResolveBody,
    @Header('X-Verdict-TTL') verdictTtl?: string,
  ): Promise<ResolveResponse> {
    throw new Error('POST resolve is answered by its middleware (resolveRoute)');
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
}
