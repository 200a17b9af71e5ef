import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateNamespaceBody, Namespace } from '../models/namespaces';

@Route('api/v1/scopes/{scope_id}/namespaces')
@Tags('Namespaces')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Scope not found')
export class NamespacesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * @summary List a scope's namespaces
   * @param scope_id The scope id (`scp-`).
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listNamespaces(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Namespace>> {
    return this.ctx.scopes.listNamespaces(req.user, scope_id, { limit, cursor });
  }

  /**
   * Creates `root`, `root/child` or `root/child/grandchild`; the parent must exist, deeper paths are refused (400).
   * @summary Create a namespace
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['write'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Bad path or too deep')
  @Response<ErrorBody>(409, 'Already exists')
  @Response<ErrorBody>(422, 'Missing field')
  async createNamespace(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: CreateNamespaceBody): Promise<Namespace> {
    this.setStatus(201);
    return this.ctx.scopes.createNamespace(req.user, scope_id, body);
  }
}
