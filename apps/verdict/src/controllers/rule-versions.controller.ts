import { Controller, Get, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { RuleVersion } from '../models/rule-versions';

@Route('v1/rule-versions')
@Tags('Rule versions')
export class RuleVersionsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * An immutable rule version of the caller's tenant, as it was made, even after the rule changed or
   * was archived (cited_rule_version_ids of a consultation point here). Needs `read` or `check`; a key
   * restricted to some scopes reads only the versions of rules in them (404 otherwise).
   * @summary Get an immutable rule version
   * @param rule_version_id The rule version id (`rv-`).
   */
  @Get('{rule_version_id}')
  @Security('apiKey')
  @Response<ErrorBody>(404, "rule_version_not_found (also for another tenant's version)")
  @Response<ErrorBody>(503, 'registry_unavailable')
  async getRuleVersion(@Path() rule_version_id: string, @Request() req: AuthedRequest): Promise<RuleVersion> {
    return this.ctx.ruleVersions.get(req.user, rule_version_id);
  }
}
