import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateDecisionBody, Decision } from '../models/entries';

@Route('api/v1/scopes/{scope_id}/decisions')
@Tags('Decisions')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Scope not found')
export class DecisionsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Decisions of the scope, oldest first; `namespace` includes the namespaces below it.
   * @summary List a scope's decisions
   * @param scope_id The scope id (`scp-`).
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   * @param namespace Only decisions in this namespace path or below it.
   * @param tag Only decisions carrying this tag.
   */
  @Get()
  @Security('bearer', ['read'])
  async listDecisions(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
    @Query() namespace?: string,
    @Query() tag?: string,
  ): Promise<Page<Decision>> {
    return this.ctx.entries.listDecisions(req.user, scope_id, { limit, cursor, namespace, tag });
  }

  /**
   * @summary Record a decision
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['write'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(422, 'Missing field')
  async createDecision(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: CreateDecisionBody): Promise<Decision> {
    this.setStatus(201);
    return this.ctx.entries.createDecision(req.user, scope_id, body);
  }

  /**
   * @summary Get a decision
   * @param scope_id The scope id (`scp-`).
   * @param decision_id The decision id (`dec-`).
   */
  @Get('{decision_id}')
  @Security('bearer', ['read'])
  async getDecision(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() decision_id: string): Promise<Decision> {
    return this.ctx.entries.getDecision(req.user, scope_id, decision_id);
  }
}
