import { Body, Controller, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody } from '../models/identity';
import type { CheckBody, CheckResult, SearchBody, SearchResult } from '../models/search';

@Route('api/v1')
@Tags('Search and compliance check')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Scope not found')
@Response<ErrorBody>(422, 'Missing field')
export class SearchController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Full-text search (english stemming, ranked, with a snippet) across decisions, invariants and rules.
   * @summary Full-text search of the tenant's entries
   */
  @Post('search')
  @Security('bearer', ['read'])
  async search(@Request() req: AuthedRequest, @Body() body: SearchBody): Promise<SearchResult> {
    return this.ctx.search.search(req.user, body);
  }

  /**
   * Compliance check: the active invariants and rules of the scope the intended action runs into
   * (conflicts), and those an override in effect suspends (overridden). Relevance: docs/registry.md.
   * @summary Compliance check of an intended action
   */
  @Post('check')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(
    503,
    "evaluation_budget_exceeded: matching the scope's rules ran past COMPLIANCE_BUDGET_MS (or authentication is unavailable)",
  )
  async check(@Request() req: AuthedRequest, @Body() body: CheckBody): Promise<CheckResult> {
    return this.ctx.compliance.check(req.user, body);
  }
}
