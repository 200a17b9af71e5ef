import { Controller, Get, Path, Query, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { RegistryEvent } from '../models/events';

@Route('api/v1/scopes/{scope_id}/events')
@Tags('Events')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Scope not found')
export class EventsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * What happened in the scope, oldest first. `type` filters (comma-separated types, e.g.
   * `rule.updated,rule.archived`); `after=<event id>` returns strictly later events (catch-up).
   * @summary List a scope's events
   * @param scope_id The scope id (`scp-`).
   * @param type Comma-separated event types (e.g. `rule.created,rule.updated`).
   * @param after Only events after this event id or ISO 8601 timestamp.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  @Response<ErrorBody>(400, 'Malformed after or cursor')
  async listEvents(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() type?: string,
    @Query() after?: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<RegistryEvent>> {
    return this.ctx.events.list(req.user, scope_id, { type, after, limit, cursor });
  }
}
