import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateReferenceBody, Reference, ReferenceStatus } from '../models/links';

@Route('api/v1')
@Tags('References')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class ReferencesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * @summary List a scope's references
   * @param scope_id The scope id (`scp-`).
   * @param entry_id Only references to this entry (a decision, invariant or rule id).
   * @param status Only references of this status.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get('scopes/{scope_id}/references')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Scope not found')
  async listScopeReferences(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() entry_id?: string,
    @Query() status?: ReferenceStatus,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Reference>> {
    return this.ctx.references.list(req.user, scope_id, { entry_id, status, limit, cursor });
  }

  /**
   * Records how an entry of the scope was used in an external context; `diverged` needs a reason (422).
   * @summary Record a reference to an entry
   * @param scope_id The scope id (`scp-`).
   */
  @Post('scopes/{scope_id}/references')
  @Security('bearer', ['write'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(404, 'Scope or entry not found')
  @Response<ErrorBody>(422, 'Missing field, or diverged without reason')
  async createReference(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: CreateReferenceBody): Promise<Reference> {
    this.setStatus(201);
    return this.ctx.references.create(req.user, scope_id, body);
  }

  /**
   * References of an entry (`entry_id`) or of an external context (`context_ref`); one of them is required (422).
   * @summary Find references by entry or external context
   * @param entry_id Only references to this entry (a decision, invariant or rule id).
   * @param context_ref Only references recorded for this external context.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get('references')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(422, 'Neither entry_id nor context_ref')
  async findReferences(
    @Request() req: AuthedRequest,
    @Query() entry_id?: string,
    @Query() context_ref?: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Reference>> {
    return this.ctx.references.find(req.user, { entry_id, context_ref, limit, cursor });
  }
}
