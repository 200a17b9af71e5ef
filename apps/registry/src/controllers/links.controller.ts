import { Body, Controller, Get, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { CreateLinkBody, Link, LinkRelation } from '../models/links';

@Route('api/v1/links')
@Tags('Links')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class LinksController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Relates two entries of the tenant; both must exist (404), the types must match the ids (400).
   * @summary Link two entries
   */
  @Post()
  @Security('bearer', ['write'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Type does not match id, or a self-link')
  @Response<ErrorBody>(404, 'Entry not found')
  @Response<ErrorBody>(409, 'Link already exists')
  @Response<ErrorBody>(422, 'Missing field')
  async createLink(@Request() req: AuthedRequest, @Body() body: CreateLinkBody): Promise<Link> {
    this.setStatus(201);
    return this.ctx.links.createLink(req.user, body);
  }

  /**
   * Links with the entity at either end.
   * @summary List an entity's links
   * @param entity_id The entry id at either end of the links.
   * @param relation Only links of this relation.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  @Response<ErrorBody>(422, 'Missing entity_id')
  async listLinks(
    @Request() req: AuthedRequest,
    @Query() entity_id: string,
    @Query() relation?: LinkRelation,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Link>> {
    return this.ctx.links.listLinks(req.user, { entity_id, relation, limit, cursor });
  }
}
