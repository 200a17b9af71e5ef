import { Body, Controller, Delete, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateOverrideBody, Override } from '../models/overrides';
import { Instants } from '../http/instants';

@Route('api/v1/scopes/{scope_id}/overrides')
@Tags('Overrides')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Not found')
export class OverridesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Every override of the scope with its computed status (default), or only `status=active|expired|revoked|invalid_conditions`.
   * @summary List a scope's overrides
   * @param scope_id The scope id (`scp-`).
   * @param status Every override (default), or only those of this computed status.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listOverrides(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() status?: 'active' | 'expired' | 'revoked' | 'invalid_conditions' | 'all',
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Override>> {
    return this.ctx.overrides.list(req.user, scope_id, { status, limit, cursor });
  }

  /**
   * Suspends an active invariant or rule of the scope.
   * @summary Suspend an invariant or rule
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['manage_invariants'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Bad target or applies_to_scope, or expires_at without Z or an offset')
  @Response<ErrorBody>(409, 'Target not active')
  @Response<ErrorBody>(
    422,
    "Missing field, expires_at in the past, or the tenant's effective overrides would hold more than TENANT_OVERRIDES_MAX_BYTES",
  )
  @Instants('expires_at')
  async createOverride(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: CreateOverrideBody): Promise<Override> {
    this.setStatus(201);
    return this.ctx.overrides.create(req.user, scope_id, body);
  }

  /**
   * Revokes the override at once (idempotent).
   * @summary Revoke an override
   * @param scope_id The scope id (`scp-`).
   * @param override_id The override id (`ovr-`).
   */
  @Delete('{override_id}')
  @Security('bearer', ['manage_invariants'])
  async revokeOverride(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() override_id: string): Promise<Override> {
    return this.ctx.overrides.revoke(req.user, scope_id, override_id);
  }
}
