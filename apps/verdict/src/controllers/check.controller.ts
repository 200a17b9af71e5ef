import { Body, Controller, Header, Middlewares, Path, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { ErrorBody } from '../models/errors';
import type { CheckRequest, CheckResponse } from '../models/verdicts';
import { checkRoute } from '../http/evaluation-routes';

@Route('{tenant_id}/v1/check')
@Tags('Verdicts')
export class CheckController extends Controller {
  // The contract only (the OpenAPI document is generated from here): most requests are answered by
  // the fast lane, the others (compressed bodies, ...) by checkRoute, the route's middleware; both
  // run the one handler of http/evaluation-routes.ts, which parses the body once.
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
  @Response<ErrorBody>(422, 'insufficient_context: details.missing_fields and details.required_context name what is missing; context_contradicts_parameters: a context Fact restates a path of the parameters with another value (details.field)')
  @Response<ErrorBody>(500, 'signing_key_unavailable')
  @Response<ErrorBody>(503, 'registry_unavailable, policy_unavailable, auth_unavailable')
  @Middlewares(checkRoute)
  /* eslint-disable @typescript-eslint/no-unused-vars -- the parameters declare the contract */
  async check(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Body() body: CheckRequest,
    @Header('X-Verdict-TTL') verdictTtl?: string,
  ): Promise<CheckResponse> {
    throw new Error('POST check is answered by its middleware (checkRoute)');
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
}
