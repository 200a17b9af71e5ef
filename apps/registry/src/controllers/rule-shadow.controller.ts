import { Controller, Example, Get, Path, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import type { ErrorBody } from '../models/identity';
import type { RuleShadowReport } from '../models/rules';

@Route('api/v1/rules')
@Tags('Rules')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Not found')
export class RuleShadowController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * How often the rule, while in shadow mode, would have decided a consultation otherwise
   * (docs/verdicts.md "Shadow rules"), per rule version. 503 when the verdict gateway cannot be asked.
   * @summary Shadow-mode report of a rule
   * @param rule_id The rule id (`rul-`).
   */
  @Example<RuleShadowReport>({
    rule_id: 'rul-3c1f9a7e2b5d4c8e9f0a1b2c',
    mode: 'shadow',
    disagreements: 17,
    by_version: [{ rule_version_id: 'rv-8e2d4f6a1c3b5d7e9f0a2b4c', disagreements: 17, last_at: '2026-11-23T09:12:03.114Z' }],
  })
  @Get('{rule_id}/shadow')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(503, 'The verdict gateway cannot be asked (or VERDICT_URL is not set)')
  async getRuleShadow(@Request() req: AuthedRequest, @Path() rule_id: string): Promise<RuleShadowReport> {
    return this.ctx.ruleShadow.report(req.user, rule_id);
  }
}
