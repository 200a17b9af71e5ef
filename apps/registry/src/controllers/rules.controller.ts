import {
  Body,
  Controller,
  Get,
  Patch,
  Path,
  Post,
  Put,
  Query,
  Request,
  Response,
  Route,
  Security,
  SuccessResponse,
  Tags,
} from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody, Page } from '../models/identity';
import type { Rule, RuleBody, RuleVersion } from '../models/rules';

@Route('api/v1/scopes/{scope_id}/rules')
@Tags('Rules')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Not found')
export class RulesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Active rules by default; `status=archived` or `status=all` to see archived ones.
   * @summary List a scope's rules
   * @param scope_id The scope id (`scp-`).
   * @param status `active` (default), `archived`, or `all`.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listRules(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() status?: 'active' | 'archived' | 'all',
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<Rule>> {
    return this.ctx.rules.list(req.user, scope_id, { status, limit, cursor });
  }

  /**
   * Creates a rule and its first version (`rv-`); the machine-readable fields are validated (400).
   * @summary Create a rule
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['manage_rules'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Invalid rule fields')
  @Response<ErrorBody>(422, "Missing field, or the tenant's active rules would hold more than TENANT_RULES_MAX_BYTES")
  async createRule(@Request() req: AuthedRequest, @Path() scope_id: string, @Body() body: RuleBody): Promise<Rule> {
    this.setStatus(201);
    return this.ctx.rules.create(req.user, scope_id, body);
  }

  /**
   * The rule with the content of its current version.
   * @summary Get a rule with its current version
   * @param scope_id The scope id (`scp-`).
   * @param rule_id The rule id (`rul-`).
   */
  @Get('{rule_id}')
  @Security('bearer', ['read'])
  async getRule(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() rule_id: string): Promise<Rule> {
    return this.ctx.rules.get(req.user, scope_id, rule_id);
  }

  /**
   * Makes a new immutable version from the body (replacing the content as a whole); 409 when archived.
   * @summary Make a new version of a rule
   * @param scope_id The scope id (`scp-`).
   * @param rule_id The rule id (`rul-`).
   */
  @Put('{rule_id}')
  @Security('bearer', ['manage_rules'])
  @Response<ErrorBody>(400, 'Invalid rule fields')
  @Response<ErrorBody>(409, 'Rule archived')
  @Response<ErrorBody>(422, "Missing field, or the tenant's active rules would hold more than TENANT_RULES_MAX_BYTES")
  async updateRule(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Path() rule_id: string,
    @Body() body: RuleBody,
  ): Promise<Rule> {
    return this.ctx.rules.update(req.user, scope_id, rule_id, body);
  }

  /**
   * Every version, oldest first.
   * @summary List a rule's versions
   * @param scope_id The scope id (`scp-`).
   * @param rule_id The rule id (`rul-`).
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get('{rule_id}/versions')
  @Security('bearer', ['read'])
  async listRuleVersions(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Path() rule_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<RuleVersion>> {
    return this.ctx.rules.versions(req.user, scope_id, rule_id, { limit, cursor });
  }

  /**
   * Archives the rule (idempotent); it leaves the normative state.
   * @summary Archive a rule
   * @param scope_id The scope id (`scp-`).
   * @param rule_id The rule id (`rul-`).
   */
  @Patch('{rule_id}/archive')
  @Security('bearer', ['manage_rules'])
  async archiveRule(@Request() req: AuthedRequest, @Path() scope_id: string, @Path() rule_id: string): Promise<Rule> {
    return this.ctx.rules.archive(req.user, scope_id, rule_id);
  }
}
