import { Body, Controller, Delete, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateInvariantBody, Invariant } from '../models/entries';

@Route('api/v1/scopes/{scope_id}/invariants')
@Tags('Invariants')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Not found')
export class InvariantsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Active invariants by default; `status=revoked` or `status=all` to see revoked ones.
   * @summary List a scope's invariants
   * @param scope_id The scope id (`scp-`).
   * @param status `active` (default), `revoked`, or `all`.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listInvariants(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() status?: 'active' | 'revoked' | 'all',
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Invariant>> {
    return this.ctx.entries.listInvariants(req.user, scope_id, { status, limit, cursor });
  }

  /**
   * @summary Create an invariant
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['manage_invariants'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(422, 'Missing field')
  async createInvariant(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: CreateInvariantBody): Promise<Invariant> {
    this.setStatus(201);
    return this.ctx.entries.createInvariant(req.user, scope_id, body);
  }

  /**
   * @summary Get an invariant
   * @param scope_id The scope id (`scp-`).
   * @param invariant_id The invariant id (`inv-`).
   */
  @Get('{invariant_id}')
  @Security('bearer', ['read'])
  async getInvariant(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() invariant_id: string): Promise<Invariant> {
    return this.ctx.entries.getInvariant(req.user, scope_id, invariant_id);
  }

  /**
   * Revokes (soft delete): the invariant stays readable with status `revoked`. Idempotent.
   * @summary Revoke an invariant
   * @param scope_id The scope id (`scp-`).
   * @param invariant_id The invariant id (`inv-`).
   */
  @Delete('{invariant_id}')
  @Security('bearer', ['manage_invariants'])
  async revokeInvariant(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() invariant_id: string): Promise<Invariant> {
    return this.ctx.entries.revokeInvariant(req.user, scope_id, invariant_id);
  }
}
