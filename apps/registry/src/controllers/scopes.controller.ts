import { Body, Controller, Get, Patch, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import { hasPermission, type AuthedRequest } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateScopeBody, Scope, ScopeDetails, UpdateScopeBody } from '../models/scopes';
import type { ResolvedScope } from '../models/resolve';

// docs/identity.md, "Privilege boundaries".
const selectorNeedsWholeTenant = () => new AppError(403, 'forbidden', 'A key restricted to some scopes cannot change a scope selector');

@Route('api/v1/scopes')
@Tags('Scopes')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class ScopesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Scopes of the caller's tenant (only those its key may touch, when restricted).
   * @summary List scopes
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listScopes(@Request() req: AuthedRequest, @Query() limit?: number, @Query() cursor?: string): Promise<Page<Scope>> {
    return this.ctx.scopes.list(req.user, { limit, cursor });
  }

  /**
   * Creates a scope with its selector (admin; a key restricted to some scopes cannot create scopes).
   * @summary Create a scope
   */
  @Post()
  @Security('bearer', ['admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Invalid selector')
  @Response<ErrorBody>(409, 'Name already taken')
  @Response<ErrorBody>(422, 'Missing field')
  async createScope(@Request() req: AuthedRequest, @Body() body: CreateScopeBody): Promise<Scope> {
    this.setStatus(201);
    return this.ctx.scopes.create(req.user, body);
  }

  /**
   * Scope details with entry counts.
   * @summary Get a scope with its entry counts
   * @param scope_id The scope id (`scp-`).
   */
  @Get('{scope_id}')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async getScope(@Request() req: AuthedRequest, @Path() scope_id: string): Promise<ScopeDetails> {
    return this.ctx.scopes.get(req.user, scope_id);
  }

  /**
   * Updates name, description or selector (admin). A key restricted to some scopes cannot change
   * a selector (403): the selector decides which operations the scope's rules and overrides
   * govern, so changing it would reach operations outside the key's scopes.
   * @summary Update a scope
   * @param scope_id The scope id (`scp-`).
   */
  @Patch('{scope_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(403, 'Missing permission, or a selector change by a key restricted to some scopes')
  @Response<ErrorBody>(404, 'Not found')
  @Response<ErrorBody>(409, 'Name already taken')
  async updateScope(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: UpdateScopeBody): Promise<Scope> {
    if (body.selector !== undefined && req.user.scope_ids.length && !hasPermission(req.user, 'platform_admin'))
      throw selectorNeedsWholeTenant();
    return this.ctx.scopes.update(req.user, scope_id, body);
  }

  /**
   * The normative state of the scope: active invariants, current rule versions and overrides in
   * effect, with normative_hash (sha256 of the canonical JSON of the response without it).
   * @summary The normative state of a scope
   * @param scope_id The scope id (`scp-`).
   */
  @Get('{scope_id}/resolve')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async resolveScope(@Request() req: AuthedRequest, @Path() scope_id: string): Promise<ResolvedScope> {
    return this.ctx.resolve.resolve(req.user, scope_id);
  }
}
